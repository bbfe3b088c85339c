// The hub's subscription requests made safe: normalised callbacks, control characters, caps per client and in all, strict form decoding, leases, logs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addressAllowed } from '../src/websub/address-guard.js';
import { clientKey } from '../src/websub/hub-route.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import { postgresMigrations } from '../src/store/postgres/migrations.js';
import { sqliteMigrations } from '../src/store/sqlite/migrations.js';
import { eventually, freshDatabase, openTestStore, recordingLogger, runCli, startTestService, TEST_STORE, type TestService } from './helpers.js';
import { CallbackServer, hubPost, makeTestCa, TEST_HUB, type TestCa } from './websub-helpers.js';

let ca: TestCa;
let cb: CallbackServer;
before(async () => {
  ca = await makeTestCa();
  cb = await CallbackServer.start(ca);
});
after(() => cb.close());

function service(hub: Record<string, unknown> = {}, extra: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  return startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), hub: { ...TEST_HUB, ca: [ca.caCert], ...hub }, ...extra });
}

let n = 0;
const path = () => `/req${++n}`;
const form = (svc: TestService, callback: string, extra: Record<string, string> = {}) => ({ 'hub.callback': callback, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml`, ...extra });
const active = async (svc: TestService, count: number) => eventually(async () => (await svc.store.listSubscriptions()).length === count && (await svc.store.listPendingVerifications()).length === 0, 3000);

describe('hub: callbacks are normalised, and control characters refused', () => {
  let svc: TestService;
  before(async () => {
    svc = await service();
  });
  after(() => svc.close());

  for (const [what, suffix] of [['a newline', '\n'], ['ESC (a terminal escape)', '\u001b]0;owned\u0007'], ['BEL', '\u0007'], ['DEL', '\u007f'], ['a C1 control (CSI)', '\u009b2J']]) {
    it(`refuses a callback carrying ${what} with 400 invalid_callback, and never calls it`, async () => {
      const p = path();
      const res = await hubPost(svc.url, form(svc, `${cb.url(p)}${suffix}`));
      assert.equal(res.status, 400);
      assert.match(res.text, /^invalid_callback: hub\.callback must not contain control characters/);
      assert.equal(cb.gets(p).length, 0);
    });
  }

  it('stores and keys the normalised URL: two spellings of one endpoint are one subscription', async () => {
    const p = path();
    assert.equal((await hubPost(svc.url, form(svc, cb.url(p)))).status, 202);
    assert.ok(await active(svc, 1));
    const other = `HTTPS://127.0.0.1:${cb.port}/x/..${p}`;
    assert.equal((await hubPost(svc.url, form(svc, other))).status, 202);
    assert.ok(await eventually(async () => cb.gets(p).length === 2, 3000));
    assert.ok(await active(svc, 1));
    const subs = await svc.store.listSubscriptions();
    assert.deepEqual(subs.map((s) => s.callback), [cb.url(p)]);
  });

  it('hub list escapes whatever non-printable text a stored callback holds (rows from before the check)', async () => {
    // What an older version stored as sent: ESC sequences, BEL and a newline that forges a row.
    const hostile = `https://127.0.0.1/cb\u001b]0;pwned\u0007\n${'https://forged.example/cb'.padEnd(40)}/feed.xml  active\u009b2J\u202e`;
    await svc.store.enqueueVerification({ callback: hostile, topic: '/feed.xml', callback_host: '127.0.0.1', client: '', mode: 'subscribe', lease_seconds: 3600, secret: null }, Date.now() + 3_600_000);
    // Due in an hour (the enqueue time is its due time), so the hub leaves it pending.
    for (const args of [['hub', 'list'], ['hub', 'list', '--json']]) {
      const out = await runCli(args, { DATABASE_URL: svc.database });
      assert.equal(out.code, 0, out.stderr);
      assert.ok(![...out.stdout].some((c) => c !== '\n' && (c < ' ' || (c >= '\u007f' && c <= '\u009f') || c === '\u202e')), `${args.join(' ')} prints control characters raw`);
      assert.match(out.stdout, /\\u001b\]0;pwned\\u0007\\(u000a|n)/);
      assert.match(out.stdout, /\\u009b2J\\u202e/);
      if (args.length === 2) assert.equal(out.stdout.trim().split('\n').filter((l) => l.includes('forged.example')).length, 1, 'the forged row stays inside its own line');
      else assert.ok(JSON.parse(out.stdout));
    }
  });
});

describe('hub: caps per client, in all, and on unsubscribe', () => {
  it('caps subscriptions per requesting client, whatever the callback host', async () => {
    const svc = await service({ maxSubscriptionsPerClient: 2, maxSubscriptionsPerHost: 100 });
    try {
      assert.equal((await hubPost(svc.url, form(svc, cb.url(path())))).status, 202);
      assert.equal((await hubPost(svc.url, form(svc, `https://localhost:${cb.port}${path()}`))).status, 202);
      const third = await hubPost(svc.url, form(svc, `https://[::1]:${cb.port}${path()}`));
      assert.equal(third.status, 429);
      assert.match(third.text, /^too_many_requests: too many subscriptions and pending requests from this client \(limit 2\)/);
    } finally {
      await svc.close();
    }
  });

  it('caps subscriptions in all', async () => {
    const svc = await service({ maxSubscriptions: 1 });
    try {
      assert.equal((await hubPost(svc.url, form(svc, cb.url(path())))).status, 202);
      const second = await hubPost(svc.url, form(svc, cb.url(path())));
      assert.equal(second.status, 429);
      assert.match(second.text, /maximum of 1 subscriptions/);
    } finally {
      await svc.close();
    }
  });

  it('counts unsubscribe requests: one for a callback that is not subscribed is capped; leaving an active subscription never is', async () => {
    const svc = await service({ maxSubscriptionsPerClient: 1 });
    try {
      const mine = path();
      assert.equal((await hubPost(svc.url, form(svc, cb.url(mine)))).status, 202);
      assert.ok(await active(svc, 1));
      const stranger = path();
      const probe = await hubPost(svc.url, form(svc, cb.url(stranger), { 'hub.mode': 'unsubscribe' }));
      assert.equal(probe.status, 429, 'an unsubscribe makes the hub call a callback: it counts');
      assert.equal(cb.gets(stranger).length, 0);
      const leaving = await hubPost(svc.url, form(svc, cb.url(mine), { 'hub.mode': 'unsubscribe' }));
      assert.equal(leaving.status, 202);
      assert.equal(leaving.text, 'Accepted: an unsubscribe verification request will be sent to the callback\n');
      assert.ok(await active(svc, 0));
    } finally {
      await svc.close();
    }
  });

  it('a pending unsubscribe request counts against its client', async () => {
    const svc = await service({ maxSubscriptionsPerClient: 1 });
    try {
      // Due in an hour, so it stays pending while the next request is judged.
      await svc.store.enqueueVerification({ callback: cb.url(path()), topic: '/feed.xml', callback_host: '127.0.0.1', client: '127.0.0.1', mode: 'unsubscribe', lease_seconds: 3600, secret: null }, Date.now() + 3_600_000);
      const res = await hubPost(svc.url, form(svc, cb.url(path())));
      assert.equal(res.status, 429);
      assert.match(res.text, /from this client/);
    } finally {
      await svc.close();
    }
  });

  it('a client is an IPv4 address or an IPv6 /64', () => {
    assert.equal(clientKey('203.0.113.9'), '203.0.113.9');
    assert.equal(clientKey('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(clientKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8:1:2::ffff'), '2001:db8:1:2::/64');
  });
});

describe('hub: a database from before the client was recorded', () => {
  it('is upgraded in place: its subscriptions keep working, with no client, counting towards the host and global caps', async () => {
    const db = await freshDatabase();
    const row = ['https://old.example/cb', '/feed.xml', 'old.example', null, 3600, Date.now() + 3_600_000, 0, Date.now()];
    const insert = 'INSERT INTO hub_subscriptions (callback, topic, callback_host, secret, lease_seconds, expires_at, failures, created_at) VALUES';
    const clientMigration = (list: readonly string[]) => list.findIndex((m) => m.includes('ADD COLUMN client'));
    if (TEST_STORE === 'sqlite') {
      const sqlite = new Database(db);
      const before = clientMigration(sqliteMigrations);
      for (const m of sqliteMigrations.slice(0, before)) sqlite.exec(m);
      sqlite.pragma(`user_version = ${before}`);
      sqlite.prepare(`${insert} (?, ?, ?, ?, ?, ?, ?, ?)`).run(...row);
      sqlite.close();
    } else {
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      const before = clientMigration(postgresMigrations);
      for (const m of postgresMigrations.slice(0, before)) await client.query(m);
      await client.query('CREATE TABLE reviewcast_schema (version INTEGER NOT NULL)');
      await client.query('INSERT INTO reviewcast_schema (version) VALUES ($1)', [before]);
      await client.query(`${insert} ($1, $2, $3, $4, $5, $6, $7, $8)`, row);
      await client.end();
    }
    const store = await openTestStore(db);
    try {
      assert.deepEqual((await store.listSubscriptions()).map((s) => [s.callback, s.client]), [['https://old.example/cb', '']]);
      assert.deepEqual(await store.countForCaps('old.example', '127.0.0.1', Date.now()), { host: 1, client: 0, total: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('hub: request fields', () => {
  let svc: TestService;
  const { logger, lines } = recordingLogger();
  before(async () => {
    svc = await service({ leaseMaxSeconds: 86_400 }, { logger });
  });
  after(() => svc.close());

  it('refuses a hub.secret that is not UTF-8 instead of using its escapes as text', async () => {
    const p = path();
    const body = `${new URLSearchParams(form(svc, cb.url(p))).toString()}&hub.secret=%FF%FEkey`;
    const res = await fetch(`${svc.url}/api/websub/hub`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    assert.equal(res.status, 400);
    assert.equal(await res.text(), 'bad_request: hub.secret is not valid percent-encoded UTF-8\n');
    assert.equal(cb.gets(p).length, 0);
  });

  it('clamps an 11-digit hub.lease_seconds to the maximum (WebSub §5.1) rather than refusing it', async () => {
    const p = path();
    assert.equal((await hubPost(svc.url, form(svc, cb.url(p), { 'hub.lease_seconds': '99999999999' }))).status, 202);
    assert.ok(await eventually(async () => cb.gets(p).length === 1, 3000));
    assert.equal(cb.gets(p)[0]!.url.searchParams.get('hub.lease_seconds'), '86400');
  });

  it('never logs the user name or password of a callback', async () => {
    const p = path();
    assert.equal((await hubPost(svc.url, form(svc, `https://alice:s3cret-pw@127.0.0.1:${cb.port}${p}`))).status, 202);
    assert.ok(await eventually(async () => lines.some((l) => l.msg === 'subscribe verified' && String(l.callback).endsWith(p)), 3000));
    const logged = JSON.stringify(lines);
    assert.doesNotMatch(logged, /s3cret-pw|alice/);
    assert.match(logged, /redacted@127\.0\.0\.1/);
  });

  it('a hub 429 tells one story: RateLimit names the hub limit it ran out of, no contradicting X-RateLimit headers', async () => {
    const limited = await service({ rateLimitPerMinute: 1 });
    try {
      const send = () => fetch(`${limited.url}/api/websub/hub`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'hub.mode=subscribe' });
      const first = await send();
      assert.equal(first.status, 400);
      assert.match(first.headers.get('ratelimit')!, /^limit=1, remaining=0, reset=\d+$/);
      const second = await send();
      assert.equal(second.status, 429);
      assert.match(await second.text(), /^too_many_requests: /);
      assert.match(second.headers.get('ratelimit')!, /^limit=1, remaining=0, reset=\d+$/);
      assert.match(second.headers.get('ratelimit-policy')!, /^\d+;w=60, 1;w=60$/);
      assert.ok(Number(second.headers.get('retry-after')) > 0);
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.equal(second.headers.get(h), null, h);
    } finally {
      await limited.close();
    }
  });
});

describe('hub: the callback address guard', () => {
  for (const address of ['::7f00:1', '::a00:1', '::808:808', '::']) {
    it(`refuses the IPv4-compatible IPv6 address ${address}`, () => assert.equal(addressAllowed(address), false));
  }
  it('refuses https://[::7f00:1]/ at once', async () => {
    const svc = await service({ allowPrivateCallbacks: false });
    try {
      const res = await hubPost(svc.url, form(svc, 'https://[::7f00:1]/cb'));
      assert.equal(res.status, 400);
      assert.match(res.text, /^invalid_callback: hub\.callback must be a public address/);
    } finally {
      await svc.close();
    }
  });
});
