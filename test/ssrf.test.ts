import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../src/config.js';
import { guardedLookup } from '../src/websub/address-guard.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { eventually, recordingLogger, startTestService } from './helpers.js';
import { CallbackServer, hubPost, makeTestCa, type TestCa } from './websub-helpers.js';

/** A routable, non-private address put on the loopback interface for these tests: the guard sees a public callback. */
const PUBLIC_IP = '1.2.3.4';

let ca: TestCa;
/** What an attacker wants to reach: a service on loopback. It must never see a request. */
let internal: CallbackServer;
before(async () => {
  ca = await makeTestCa(['127.0.0.1', PUBLIC_IP], ['localhost', 'rebind.test', 'public.test']);
  internal = await CallbackServer.start(ca);
});
after(() => internal.close());

const GUARDED = { allowPrivateCallbacks: false, retryDelaysMs: [20, 20], pollMs: 20, timeoutMs: 2000 };

describe('hub SSRF: callbacks that point inside are refused', () => {
  const P = () => internal.port;
  const literals: [string, () => string][] = [
    ['127.0.0.1', () => `https://127.0.0.1:${P()}/x`],
    ['0.0.0.0', () => `https://0.0.0.0:${P()}/x`],
    ['::1', () => `https://[::1]:${P()}/x`],
    ['10/8', () => `https://10.1.2.3:${P()}/x`],
    ['172.16/12', () => `https://172.20.0.1:${P()}/x`],
    ['192.168/16', () => `https://192.168.1.1:${P()}/x`],
    ['cloud metadata 169.254.169.254', () => 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT 100.64/10', () => `https://100.64.0.1:${P()}/x`],
    ['unique-local fc00::/7', () => `https://[fd00::1]:${P()}/x`],
    ['link-local fe80::/10', () => `https://[fe80::1]:${P()}/x`],
    ['IPv4-mapped ::ffff:127.0.0.1', () => `https://[::ffff:127.0.0.1]:${P()}/x`],
    ['NAT64 64:ff9b::7f00:1', () => `https://[64:ff9b::7f00:1]:${P()}/x`],
    ['6to4 2002:7f00:1::', () => `https://[2002:7f00:1::]:${P()}/x`],
    ['decimal 2130706433', () => `https://2130706433:${P()}/x`],
    ['octal 0177.0.0.1', () => `https://0177.0.0.1:${P()}/x`],
    ['hex 0x7f.0.0.1', () => `https://0x7f.0.0.1:${P()}/x`],
    ['hex 0x7f000001', () => `https://0x7f000001:${P()}/x`],
    ['short 127.1', () => `https://127.1:${P()}/x`],
  ];

  for (const [what, url] of literals) {
    it(`${what}: 400 at once, logged, nothing sent`, async () => {
      const { logger, lines } = recordingLogger();
      const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), hub: GUARDED, logger });
      try {
        const before = internal.requests.length;
        const res = await hubPost(svc.url, { 'hub.callback': url(), 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` });
        assert.equal(res.status, 400, res.text);
        assert.match(res.text, /public address/);
        assert.ok(lines.some((l) => String(l.msg).includes('not a public address')), 'a log line says why');
        await svc.server.hub.idle();
        assert.equal(internal.requests.length, before);
        assert.equal((await svc.store.listSubscriptions()).length, 0);
      } finally {
        await svc.close();
      }
    });
  }

  it('a host name that resolves to a private address: accepted for verification, then refused at connect, logged, nothing sent', async () => {
    const { logger, lines } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), hub: GUARDED, logger });
    try {
      const before = internal.requests.length;
      const res = await hubPost(svc.url, { 'hub.callback': `https://localhost:${internal.port}/named`, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` });
      assert.equal(res.status, 202);
      assert.ok(await eventually(async () => lines.some((l) => l.msg === 'subscribe rejected' && /not a public address/.test(String(l.detail))), 3000), 'logged');
      assert.equal(internal.requests.length, before);
      assert.equal((await svc.store.listSubscriptions()).length, 0);
    } finally {
      await svc.close();
    }
  });
});

/** Puts PUBLIC_IP on lo for the duration; false when this machine does not allow it (not root). */
function addPublicAddress(): boolean {
  try {
    execFileSync('ip', ['addr', 'add', `${PUBLIC_IP}/32`, 'dev', 'lo'], { stdio: 'pipe' });
    return true;
  } catch (err) {
    return /File exists/.test(String((err as { stderr?: Buffer }).stderr));
  }
}

describe('the guarded lookup', () => {
  it('passes a failed resolution on as its DNS error, whatever address family is asked for', async () => {
    const fails: Resolver = (hostname, done) => done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const lookup = guardedLookup(fails);
    for (const family of [0, 4, 6]) {
      const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('gone.test', { family }, (e) => resolve(e)));
      assert.equal(err?.code, 'ENOTFOUND', `family ${family}`);
    }
  });
});

describe('hub SSRF: a public callback that turns private', { skip: addPublicAddress() ? false : `needs root to add ${PUBLIC_IP} to lo` }, () => {
  let outside: CallbackServer;
  before(async () => {
    outside = await CallbackServer.start(ca, PUBLIC_IP);
  });
  after(async () => {
    await outside.close();
    execFileSync('ip', ['addr', 'del', `${PUBLIC_IP}/32`, 'dev', 'lo'], { stdio: 'pipe' });
  });

  it('DNS rebinding: the name answers public for verification and private for delivery; the delivery is refused, nothing reaches loopback', async () => {
    let calls = 0;
    // The first answer (checked and connected to) is public; every later one points at the internal service.
    const resolver: Resolver = (hostname, done) => {
      calls++;
      const address = hostname === 'rebind.test' && calls === 1 ? PUBLIC_IP : '127.0.0.1';
      done(null, [{ address, family: 4 } as LookupAddress]);
    };
    const { logger, lines } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), hub: { ...GUARDED, ca: [ca.caCert], resolver }, logger });
    // The public server closes each connection, so the delivery needs a new one (and a new lookup).
    outside.behaviour = (req) =>
      req.method === 'GET' ? { status: 200, body: req.url.searchParams.get('hub.challenge') ?? '', headers: { connection: 'close' } } : { status: 204, headers: { connection: 'close' } };
    try {
      const before = internal.requests.length;
      const callback = `https://rebind.test:${outside.port}/rebind`;
      assert.equal((await hubPost(svc.url, { 'hub.callback': callback, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` })).status, 202);
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === 1, 3000), 'verified through the public answer');
      assert.equal(outside.gets('/rebind').length, 1);
      await svc.store.importReviews({ reviews: REVIEWS.slice(2, 3), replace: false, dryRun: false });
      assert.ok(await eventually(async () => lines.some((l) => String(l.msg).startsWith('delivery failed') && /not a public address/.test(String(l.error))), 5000), 'refused and logged');
      assert.equal(internal.requests.length, before, 'nothing reached the loopback service');
      assert.equal(outside.posts('/rebind').length, 0);
      assert.ok(calls >= 2);
    } finally {
      await svc.close();
    }
  });

  it('redirects are never followed: not on verification, not on delivery', async () => {
    const { logger } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), hub: { ...GUARDED, ca: [ca.caCert] }, logger });
    const inside = `https://127.0.0.1:${internal.port}/stolen`;
    outside.behaviour = (req) => {
      if (req.url.pathname === '/redirect-verify') return { status: 302, headers: { location: `${inside}?${req.url.searchParams}` } };
      if (req.method === 'GET') return { status: 200, body: req.url.searchParams.get('hub.challenge') ?? '' };
      return { status: 307, headers: { location: inside } };
    };
    try {
      assert.equal((await hubPost(svc.url, { 'hub.callback': `https://${PUBLIC_IP}:${outside.port}/redirect-verify`, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` })).status, 202);
      assert.equal((await hubPost(svc.url, { 'hub.callback': `https://${PUBLIC_IP}:${outside.port}/redirect-deliver`, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` })).status, 202);
      assert.ok(await eventually(async () => outside.gets('/redirect-verify').length === 1 && (await svc.store.listSubscriptions()).length === 1, 3000));
      await svc.store.importReviews({ reviews: REVIEWS.slice(2, 3), replace: false, dryRun: false });
      // Three answers of 307 are three failures: the subscription is removed.
      assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === 0, 5000));
      assert.equal(outside.posts('/redirect-deliver').length, 3);
      assert.equal(internal.requests.filter((r) => r.url.pathname === '/stolen').length, 0);
    } finally {
      await svc.close();
    }
  });
});
