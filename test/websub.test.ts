import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Snapshot } from '../src/snapshot/snapshot.js';
import { addressAllowed } from '../src/websub/address-guard.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { eventually, freshDatabase, openTestStore, runCli, startTestService, tempDir, type TestService } from './helpers.js';
import { CallbackServer, echoChallenge, hubPost, makeTestCa, TEST_HUB, type TestCa } from './websub-helpers.js';

let ca: TestCa;
let cb: CallbackServer;
before(async () => {
  ca = await makeTestCa();
  cb = await CallbackServer.start(ca);
});
after(() => cb.close());

async function service(hub: Record<string, unknown> = {}, reviews = REVIEWS.slice(0, 4)): Promise<TestService> {
  return startTestService({ business: BUSINESS, reviews, hub: { ...TEST_HUB, ca: [ca.caCert], ...hub } });
}

let n = 0;
/** A fresh callback path per test, so one test's traffic never counts in another. */
function path(): string {
  return `/cb${++n}`;
}

async function subscribed(svc: TestService, callbackPath: string, topic = '/feed.xml'): Promise<boolean> {
  return eventually(async () => (await svc.store.listSubscriptions()).some((s) => s.callback.startsWith(cb.url(callbackPath)) && s.topic === topic), 3000);
}

async function subscribe(svc: TestService, callbackPath: string, extra: Record<string, string> = {}, topic = '/feed.xml') {
  const res = await hubPost(svc.url, { 'hub.callback': cb.url(callbackPath), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}${topic}`, ...extra });
  assert.equal(res.status, 202, res.text);
  assert.ok(await subscribed(svc, callbackPath, topic), 'subscription did not become active');
}

async function addReview(svc: TestService, i: number): Promise<void> {
  await svc.store.importReviews({ reviews: [REVIEWS[i]!], replace: false, dryRun: false });
  await svc.server.live.refresh();
}

/** Waits until the hub has announced every change so far and finished a work pass after it: whatever it would send, it has sent. */
async function settled(svc: TestService): Promise<void> {
  await svc.server.hub.idle();
  svc.server.hub.kick();
  await svc.server.hub.idle();
}

describe('hub: subscription requests', () => {
  let svc: TestService;
  before(async () => {
    svc = await service();
  });
  after(() => svc.close());

  it('subscribe: 202, then a verification GET with mode, topic, alphanumeric challenge and lease, keeping the callback query', async () => {
    const p = path();
    const res = await hubPost(svc.url, { 'hub.callback': `${cb.url(p)}?user=42&x=y`, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml`, 'hub.lease_seconds': '86400', 'hub.unknown': 'ignored' });
    assert.equal(res.status, 202);
    assert.match(res.type!, /^text\/plain/);
    assert.ok(await eventually(async () => cb.gets(p).length === 1, 3000));
    const q = cb.gets(p)[0]!.url.searchParams;
    assert.equal(q.get('user'), '42');
    assert.equal(q.get('x'), 'y');
    assert.equal(q.get('hub.mode'), 'subscribe');
    assert.equal(q.get('hub.topic'), `${svc.url}/feed.xml`);
    assert.match(q.get('hub.challenge')!, /^[A-Za-z0-9]{20,}$/);
    assert.equal(q.get('hub.lease_seconds'), '86400');
    assert.ok(await subscribed(svc, p));
  });

  it('challenges are single use: two verifications never share one', async () => {
    const p = path();
    await subscribe(svc, p);
    await subscribe(svc, p);
    const challenges = cb.gets(p).map((r) => r.url.searchParams.get('hub.challenge'));
    assert.equal(new Set(challenges).size, challenges.length);
  });

  it('clamps leases to the configured bounds and states the granted value', async () => {
    const p = path();
    await subscribe(svc, p, { 'hub.lease_seconds': '1' });
    assert.equal(cb.gets(p)[0]!.url.searchParams.get('hub.lease_seconds'), '3600');
    const p2 = path();
    await subscribe(svc, p2, { 'hub.lease_seconds': '999999999' });
    assert.equal(cb.gets(p2)[0]!.url.searchParams.get('hub.lease_seconds'), String(30 * 86400));
    const p3 = path();
    await subscribe(svc, p3);
    assert.equal(cb.gets(p3)[0]!.url.searchParams.get('hub.lease_seconds'), String(10 * 86400));
  });

  const rejectedAnswers: [string, (challenge: string) => { status: number; body?: string; headers?: Record<string, string> }][] = [
    ['a wrong body', () => ({ status: 200, body: 'nope' })],
    ['the challenge with extra text', (c) => ({ status: 200, body: `${c}\n` })],
    ['a 404', (c) => ({ status: 404, body: c })],
    ['a 500', (c) => ({ status: 500, body: c })],
    ['a redirect (not followed)', (c) => ({ status: 302, body: c, headers: { location: 'https://127.0.0.1:1/elsewhere' } })],
  ];
  for (const [what, answer] of rejectedAnswers) {
    it(`verification answered with ${what} rejects the subscription`, async () => {
      const p = path();
      cb.behaviour = (req) => (req.url.pathname === p && req.method === 'GET' ? answer(req.url.searchParams.get('hub.challenge')!) : echoChallenge(req));
      try {
        const res = await hubPost(svc.url, { 'hub.callback': cb.url(p), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/api/feed.json` });
        assert.equal(res.status, 202);
        assert.ok(await eventually(async () => (await svc.store.listPendingVerifications()).length === 0 && cb.gets(p).length === 1, 3000));
        assert.equal((await svc.store.listSubscriptions()).filter((s) => s.callback === cb.url(p)).length, 0);
        assert.equal(cb.gets(p).length, 1, 'exactly one verification request, no redirect followed');
      } finally {
        cb.behaviour = echoChallenge;
      }
    });
  }

  it('a failed re-subscription leaves the active subscription as it was', async () => {
    const p = path();
    await subscribe(svc, p, { 'hub.secret': 'first' });
    cb.behaviour = (req) => (req.method === 'GET' ? { status: 500 } : { status: 204 });
    try {
      assert.equal((await hubPost(svc.url, { 'hub.callback': cb.url(p), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml`, 'hub.secret': 'second' })).status, 202);
      assert.ok(await eventually(async () => cb.gets(p).length === 2 && (await svc.store.listPendingVerifications()).length === 0, 3000));
    } finally {
      cb.behaviour = echoChallenge;
    }
    const sub = (await svc.store.listSubscriptions()).find((s) => s.callback === cb.url(p))!;
    assert.equal(sub.secret, 'first');
  });

  const badRequests: [string, Record<string, string>, RegExp][] = [
    ['a plain HTTP callback', { 'hub.callback': 'http://127.0.0.1:9/cb' }, /https/],
    ['a callback that is not a URL', { 'hub.callback': 'not a url' }, /not a URL/],
    ['a missing callback', { 'hub.callback': '' }, /hub.callback/],
    ['an unknown topic', { 'hub.topic': 'https://elsewhere.example/feed.xml' }, /hub.topic must be one of/],
    ['a missing topic', { 'hub.topic': '' }, /hub.topic/],
    ['a bad mode', { 'hub.mode': 'publish' }, /hub.mode/],
    ['a missing mode', { 'hub.mode': '' }, /hub.mode/],
    ['a secret of 200 bytes', { 'hub.secret': 'x'.repeat(200) }, /shorter than 200 bytes/],
    ['a non-numeric lease', { 'hub.lease_seconds': 'forever' }, /lease_seconds/],
  ];
  for (const [what, override, reason] of badRequests) {
    it(`refuses ${what} with 400 and a plain-text reason`, async () => {
      const fields: Record<string, string> = { 'hub.callback': cb.url('/never'), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml`, ...override };
      for (const [k, v] of Object.entries(fields)) if (v === '') delete fields[k];
      const res = await hubPost(svc.url, fields);
      assert.equal(res.status, 400);
      assert.match(res.type!, /^text\/plain/);
      assert.match(res.text, reason);
    });
  }

  it('refuses other content types with 415', async () => {
    const res = await hubPost(svc.url, { 'hub.callback': cb.url('/never'), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` }, 'application/json');
    assert.equal(res.status, 415);
    assert.match(res.type!, /^text\/plain/);
    assert.equal(cb.gets('/never').length, 0);
  });

  it('refuses another method with 405 and Allow, in plain text like its other errors, however the path and body are written', async () => {
    const form = new URLSearchParams({ 'hub.callback': cb.url('/never'), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` }).toString();
    const cases: [string, string, { type: string; body: string } | null][] = [
      ['GET', '/api/websub/hub', null],
      ['PUT', '/api/websub/hub', { type: 'application/x-www-form-urlencoded', body: form }],
      ['DELETE', '/api/websub/hub', null],
      ['PATCH', '/api/websub/hub', { type: 'application/x-www-form-urlencoded', body: form }],
      // A body that does not parse is not the answer: the method is.
      ['PUT', '/api/websub/hub', { type: 'application/json', body: '{' }],
      ['PUT', '/api/websub/hub', { type: 'application/x-unknown', body: 'x' }],
      // The router takes these for the hub's path; so does the 405.
      ['GET', '/api/websub/hub/', null],
      ['GET', '//api//websub/hub', null],
      ['GET', '/api/websub/hub?hub.mode=subscribe', null],
    ];
    for (const [method, target, body] of cases) {
      const what = `${method} ${target}${body ? ` (${body.type})` : ''}`;
      const res = await fetch(`${svc.url}${target}`, { method, ...(body && { headers: { 'content-type': body.type }, body: body.body }) });
      assert.equal(res.status, 405, what);
      assert.equal(res.headers.get('allow'), 'POST, OPTIONS', what);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', what);
      assert.equal(res.headers.get('cache-control'), 'no-store', what);
      assert.equal(res.headers.get('access-control-allow-origin'), null, `${what}: not for browsers`);
      assert.equal(await res.text(), `method_not_allowed: ${method} is not allowed here; use POST, OPTIONS\n`, what);
    }
    const head = await fetch(`${svc.url}/api/websub/hub`, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('allow'), head.headers.get('content-type')], [405, 'POST, OPTIONS', 'text/plain; charset=utf-8']);
    assert.equal(cb.gets('/never').length, 0);
  });
});

describe('hub: unsubscribe and leases', () => {
  it('unsubscribe runs the same handshake and removes the subscription; a failed handshake keeps it', async () => {
    const svc = await service();
    try {
      const p = path();
      await subscribe(svc, p);
      cb.behaviour = (req) => (req.method === 'GET' ? { status: 200, body: 'wrong' } : { status: 204 });
      await hubPost(svc.url, { 'hub.callback': cb.url(p), 'hub.mode': 'unsubscribe', 'hub.topic': `${svc.url}/feed.xml` });
      assert.ok(await eventually(async () => cb.gets(p).length === 2, 3000));
      await svc.server.hub.idle();
      assert.equal((await svc.store.listSubscriptions()).length, 1, 'failed unsubscribe keeps the subscription');
      cb.behaviour = echoChallenge;
      assert.equal((await hubPost(svc.url, { 'hub.callback': cb.url(p), 'hub.mode': 'unsubscribe', 'hub.topic': `${svc.url}/feed.xml` })).status, 202);
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === 0, 3000));
      const last = cb.gets(p).at(-1)!.url.searchParams;
      assert.equal(last.get('hub.mode'), 'unsubscribe');
      await addReview(svc, 5);
      await settled(svc);
      assert.equal(cb.posts(p).length, 0, 'no delivery after unsubscribe');
    } finally {
      cb.behaviour = echoChallenge;
      await svc.close();
    }
  });

  it('an expired lease ends deliveries; re-subscribing renews', async () => {
    const svc = await service({ leaseMinSeconds: 1, leaseDefaultSeconds: 1 });
    try {
      const p = path();
      await subscribe(svc, p, { 'hub.lease_seconds': '1' });
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === 0, 5000), 'the lease ended');
      await addReview(svc, 5);
      await settled(svc);
      assert.equal(cb.posts(p).length, 0);
      await subscribe(svc, p, { 'hub.lease_seconds': '60' });
      await addReview(svc, 6);
      assert.ok(await eventually(async () => cb.posts(p).length === 1, 3000));
    } finally {
      await svc.close();
    }
  });
});

describe('hub: distribution', () => {
  for (const topic of ['/feed.xml', '/api/feed.json', '/reviews.json'] as const) {
    it(`${topic}: a change POSTs the full content with the topic's Content-Type and Link header, unsigned without a secret`, async () => {
      const svc = await service();
      try {
        const p = path();
        await subscribe(svc, p, {}, topic);
        await addReview(svc, 5);
        assert.ok(await eventually(async () => cb.posts(p).length === 1, 3000));
        const post = cb.posts(p)[0]!;
        const served = await fetch(`${svc.url}${topic}`);
        assert.equal(post.headers['content-type'], served.headers.get('content-type'));
        assert.equal(post.headers['content-type'], topic === '/feed.xml' ? 'application/atom+xml' : 'application/json');
        assert.equal(post.body.toString(), await served.text());
        assert.equal(post.headers.link, `<${svc.url}/api/websub/hub>; rel="hub", <${svc.url}${topic}>; rel="self"`);
        assert.equal(post.headers['x-hub-signature'], undefined);
      } finally {
        await svc.close();
      }
    });
  }

  it('signs deliveries with HMAC-SHA256 of the body when a secret was given', async () => {
    const svc = await service();
    try {
      const p = path();
      await subscribe(svc, p, { 'hub.secret': 's3cret' });
      await addReview(svc, 5);
      assert.ok(await eventually(async () => cb.posts(p).length === 1, 3000));
      const post = cb.posts(p)[0]!;
      assert.equal(post.headers['x-hub-signature'], `sha256=${createHmac('sha256', 's3cret').update(post.body).digest('hex')}`);
    } finally {
      await svc.close();
    }
  });

  it('does not deliver when the topic content did not change', async () => {
    const svc = await service();
    try {
      const p = path();
      await subscribe(svc, p);
      await svc.store.importReviews({ reviews: REVIEWS.slice(0, 4), replace: false, dryRun: false });
      await svc.server.live.refresh();
      await settled(svc);
      assert.equal(cb.posts(p).length, 0);
    } finally {
      await svc.close();
    }
  });

  it('coalesces changes made before a delivery into one delivery of the latest content', async () => {
    const svc = await service({ retryDelaysMs: [600] });
    try {
      const p = path();
      await subscribe(svc, p);
      let first = true;
      cb.behaviour = (req) => {
        if (req.method === 'POST' && first) {
          first = false;
          return { status: 503 };
        }
        return echoChallenge(req);
      };
      await addReview(svc, 4);
      assert.ok(await eventually(async () => cb.posts(p).length === 1, 3000));
      await addReview(svc, 5);
      await addReview(svc, 6);
      assert.ok(await eventually(async () => cb.posts(p).length === 2, 3000));
      // The retry succeeded and cleared the job (the failure count is back to 0): nothing is left to send.
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions())[0]?.failures === 0, 3000));
      await settled(svc);
      assert.equal(cb.posts(p).length, 2, 'two changes during the retry wait made one delivery');
      assert.equal(cb.posts(p)[1]!.body.toString(), await (await fetch(`${svc.url}/feed.xml`)).text());
    } finally {
      cb.behaviour = echoChallenge;
      await svc.close();
    }
  });

  it('3 consecutive failed attempts remove the subscription; a success resets the count', async () => {
    const svc = await service();
    try {
      const p = path();
      await subscribe(svc, p);
      let answers = [500, 500, 204];
      cb.behaviour = (req) => (req.method === 'POST' ? { status: answers.shift() ?? 500 } : echoChallenge(req));
      await addReview(svc, 4);
      assert.ok(await eventually(async () => cb.posts(p).length === 3, 3000));
      await svc.server.hub.idle();
      assert.equal((await svc.store.listSubscriptions())[0]?.failures, 0, 'success reset the count');
      answers = [500, 500, 500];
      await addReview(svc, 5);
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === 0, 3000));
      assert.equal(cb.posts(p).length, 6);
      await addReview(svc, 6);
      await settled(svc);
      assert.equal(cb.posts(p).length, 6, 'removed subscribers get nothing more');
    } finally {
      cb.behaviour = echoChallenge;
      await svc.close();
    }
  });

  it('410 Gone removes the subscription at once', async () => {
    const svc = await service();
    try {
      const p = path();
      await subscribe(svc, p);
      cb.behaviour = (req) => (req.method === 'POST' ? { status: 410 } : echoChallenge(req));
      await addReview(svc, 4);
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === 0, 3000));
      assert.equal(cb.posts(p).length, 1);
    } finally {
      cb.behaviour = echoChallenge;
      await svc.close();
    }
  });

  it('never sends an older body than the one announced (another replica got there first): it catches up, then delivers', async () => {
    // Polling is slow here, so this instance learns of the change only through the queued delivery.
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 4), revisionPollMs: 60_000, hub: { ...TEST_HUB, ca: [ca.caCert] } });
    const other = await openTestStore(svc.database);
    try {
      const p = path();
      await subscribe(svc, p);
      // "Another replica": imports, loads the new data and announces its feed.
      await other.importReviews({ reviews: [REVIEWS[7]!], replace: false, dryRun: false });
      const newer = new Snapshot(await other.load(), svc.server.live.current().feedTag);
      // On SQLite this queues the delivery; on PostgreSQL, NOTIFY may let the instance announce first: either way one delivery.
      await other.announceTopic('/feed.xml', newer.topic('/feed.xml', svc.url).etag, newer.revision.revision, Date.now());
      assert.ok(await eventually(async () => cb.posts(p).length === 1, 3000));
      assert.equal(cb.posts(p)[0]!.body.toString(), newer.topic('/feed.xml', svc.url).identity.toString(), 'the announced body, not the stale one');
      await settled(svc);
      assert.equal(cb.posts(p).length, 1, 'catching up announced nothing new');
      // An announcement from an older revision is ignored.
      assert.equal(await other.announceTopic('/feed.xml', 'stale-etag', newer.revision.revision - 1, Date.now()), 0);
    } finally {
      await other.close();
      await svc.close();
    }
  });

  it('a pending delivery survives a restart', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 4), database, hub: { ...TEST_HUB, ca: [ca.caCert], retryDelaysMs: [800] } });
    const p = path();
    cb.behaviour = (req) => (req.method === 'POST' ? { status: 500 } : echoChallenge(req));
    try {
      await subscribe(first, p);
      await addReview(first, 5);
      assert.ok(await eventually(async () => cb.posts(p).length === 1, 3000));
      await first.close();
      cb.behaviour = echoChallenge;
      const second = await startTestService({ database, hub: { ...TEST_HUB, ca: [ca.caCert] } });
      try {
        assert.ok(await eventually(async () => cb.posts(p).length === 2, 4000));
        assert.equal(cb.posts(p)[1]!.body.toString(), await (await fetch(`${second.url}/feed.xml`)).text());
      } finally {
        await second.close();
      }
    } finally {
      cb.behaviour = echoChallenge;
    }
  });

  it('an import by the CLI in another process reaches the subscriber', async () => {
    const svc = await service();
    try {
      const p = path();
      await subscribe(svc, p, {}, '/reviews.json');
      const file = join(tempDir(), 'more.json');
      writeFileSync(file, JSON.stringify(REVIEWS));
      assert.equal((await runCli(['import', file], { DATABASE_URL: svc.database })).code, 0);
      assert.ok(await eventually(async () => cb.posts(p).length === 1, 4000));
      assert.equal((JSON.parse(cb.posts(p)[0]!.body.toString()) as { reviews: unknown[] }).reviews.length, 8);
      const list = await runCli(['hub', 'list'], { DATABASE_URL: svc.database });
      assert.equal(list.code, 0);
      assert.match(list.stdout, /CALLBACK\s+TOPIC\s+STATE\s+LEASE ENDS\s+FAILURES/);
      assert.match(list.stdout, new RegExp(`${cb.url(p).replace(/[.]/g, '\\.')}\\s+/reviews\\.json\\s+active\\s+\\d{4}-`));
    } finally {
      await svc.close();
    }
  });
});

describe('hub: callback address guard', () => {
  const refused = [
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1',
  ];
  for (const address of refused) it(`refuses ${address}`, () => assert.equal(addressAllowed(address), false));
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) it(`allows ${address}`, () => assert.equal(addressAllowed(address), true));

  it('without HUB_ALLOW_PRIVATE_CALLBACKS a private IP literal is refused at once and a hostname resolving to 127.0.0.1 is never called', async () => {
    const svc = await service({ allowPrivateCallbacks: false });
    try {
      const literal = await hubPost(svc.url, { 'hub.callback': cb.url('/guard'), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` });
      assert.equal(literal.status, 400);
      assert.match(literal.text, /public address/);
      const named = await hubPost(svc.url, { 'hub.callback': `https://localhost:${cb.port}/guard`, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` });
      assert.equal(named.status, 202);
      assert.ok(await eventually(async () => (await svc.store.listPendingVerifications()).length === 0, 3000));
      assert.equal(cb.gets('/guard').length, 0, 'the guard refused to connect');
      assert.equal((await svc.store.listSubscriptions()).length, 0);
    } finally {
      await svc.close();
    }
  });

  it('caps subscriptions per callback host', async () => {
    const svc = await service({ maxSubscriptionsPerHost: 2 });
    try {
      await subscribe(svc, path());
      await subscribe(svc, path());
      const res = await hubPost(svc.url, { 'hub.callback': cb.url(path()), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` });
      assert.equal(res.status, 429);
      assert.match(res.text, /too many subscriptions/);
    } finally {
      await svc.close();
    }
  });

  it('rate-limits hub requests per client', async () => {
    const svc = await service({ rateLimitPerMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await hubPost(svc.url, { 'hub.mode': 'subscribe' })).status);
      assert.deepEqual(statuses, [400, 400, 400, 429, 429]);
    } finally {
      await svc.close();
    }
  });

  it('counts hub requests against one limit across instances sharing a database', async () => {
    const a = await service({ rateLimitPerMinute: 3 });
    const b = await startTestService({ database: a.database, hub: { ...TEST_HUB, ca: [ca.caCert], rateLimitPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (const target of [a, b, a, b]) statuses.push((await hubPost(target.url, { 'hub.mode': 'subscribe' })).status);
      assert.deepEqual(statuses, [400, 400, 400, 429]);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('behind a trusted proxy, counts each forwarded client separately', async () => {
    const svc = await startTestService({ business: BUSINESS, trustProxy: true, hub: { ...TEST_HUB, rateLimitPerMinute: 2 } });
    try {
      const send = (ip: string) =>
        fetch(`${svc.url}/api/websub/hub`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip }, body: 'hub.mode=subscribe' });
      const a = [(await send('198.51.100.1')).status, (await send('198.51.100.1')).status, (await send('198.51.100.1')).status];
      const b = (await send('198.51.100.2')).status;
      // Entries before the last are the client's own claims: this is still 198.51.100.1.
      const spoofed = (await send('203.0.113.7, 198.51.100.1')).status;
      assert.deepEqual([...a, b, spoofed], [400, 400, 429, 400, 429]);
    } finally {
      await svc.close();
    }
  });
});
