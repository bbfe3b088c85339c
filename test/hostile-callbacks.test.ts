import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { eventually, startTestService, type TestService } from './helpers.js';
import { hubPost, makeTestCa, type TestCa } from './websub-helpers.js';

/**
 * Subscribers that misbehave, on one HTTPS server: each path answers verification properly
 * (so the subscription becomes active) and then misbehaves on delivery.
 */
const HOSTILE = ['hang', 'trickle', 'huge', 'reset', '302', '404', '500', 'gone'] as const;
type Hostile = (typeof HOSTILE)[number];

let ca: TestCa;
let server: Server;
let port: number;
const delivered = new Map<string, number>();
const attempts = new Map<string, number>();
const open = new Set<NodeJS.Timeout>();

before(async () => {
  ca = await makeTestCa();
  server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const url = new URL(req.url!, 'https://x');
    const name = url.pathname.slice(1);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(url.searchParams.get('hub.challenge'));
      return;
    }
    attempts.set(name, (attempts.get(name) ?? 0) + 1);
    req.resume();
    switch (name as Hostile | 'good') {
      case 'good':
        req.on('end', () => {
          delivered.set(name, Date.now());
          res.writeHead(204).end();
        });
        return;
      case 'hang':
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => res.write('.'), 100);
        open.add(t);
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'huge': {
        // A 2xx followed by 100 MB, written as fast as the hub reads it.
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 100 * 2 ** 20 });
        const chunk = Buffer.alloc(2 ** 20, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < 100 && res.write(chunk)) sent++;
          if (sent < 100) res.once('drain', pump);
          else res.end();
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      case 'reset':
        req.socket.destroy();
        return;
      case '302':
        res.writeHead(302, { location: 'https://127.0.0.1/elsewhere' }).end();
        return;
      case '404':
        res.writeHead(404).end();
        return;
      case '500':
        res.writeHead(500).end();
        return;
      case 'gone':
        res.writeHead(410).end();
        return;
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
after(async () => {
  for (const t of open) clearInterval(t);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('hub: hostile subscribers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({
      business: BUSINESS,
      reviews: REVIEWS.slice(0, 2),
      hub: { allowPrivateCallbacks: true, ca: [ca.caCert], timeoutMs: 1500, retryDelaysMs: [50, 50], pollMs: 20 },
    });
  });
  after(() => svc.close());

  it('a subscriber that never answers, trickles, floods 100 MB, resets or answers 3xx/4xx/5xx/410 does not hold up the others, the hub or memory; the removal rules hold', async () => {
    for (const name of [...HOSTILE, 'good']) {
      const res = await hubPost(svc.url, { 'hub.callback': `https://127.0.0.1:${port}/${name}`, 'hub.mode': 'subscribe', 'hub.topic': `${svc.url}/feed.xml` });
      assert.equal(res.status, 202);
    }
    assert.ok(await eventually(async () => (await svc.store.listSubscriptions()).length === HOSTILE.length + 1, 5000));
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;

    const changed = Date.now();
    await svc.store.importReviews({ reviews: REVIEWS.slice(2, 3), replace: false, dryRun: false });
    assert.ok(await eventually(async () => delivered.has('good'), 5000), 'the well-behaved subscriber got the change');
    const goodAfterMs = delivered.get('good')! - changed;
    // On time: well before the hostile ones' 1.5 s timeout could have been waited out.
    assert.ok(goodAfterMs < 1500, `good subscriber served after ${goodAfterMs} ms`);

    // The service answers while deliveries hang.
    const t0 = Date.now();
    assert.equal((await fetch(`${svc.url}/healthz`)).status, 200);
    assert.ok(Date.now() - t0 < 500, 'healthz answered promptly during the hostile deliveries');

    // 410 removes at once; every other failure counts, and three in a row remove the subscription.
    assert.ok(
      await eventually(async () => {
        const left = (await svc.store.listSubscriptions()).map((s) => new URL(s.callback).pathname.slice(1));
        // "huge" acknowledged with 200: a success, whatever follows the status (the hub reads 4 KB of it).
        return left.sort().join() === 'good,huge';
      }, 15_000),
      `left: ${(await svc.store.listSubscriptions()).map((s) => s.callback).join(', ')}`,
    );
    assert.equal(attempts.get('gone'), 1, '410 is not retried');
    assert.equal(attempts.get('huge'), 1, 'a 2xx is success');
    for (const name of HOSTILE.filter((h) => h !== 'gone' && h !== 'huge')) assert.equal(attempts.get(name), 3, `${name}: three attempts`);

    // The 100 MB answer was never read: memory did not grow by anything near it.
    global.gc?.();
    const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    const rssGrowth = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    assert.ok(heapGrowth < 30, `heap grew ${heapGrowth.toFixed(0)} MiB`);
    assert.ok(rssGrowth < 60, `rss grew ${rssGrowth.toFixed(0)} MiB`);

    // And the good subscriber still gets the next change.
    delivered.delete('good');
    await svc.store.importReviews({ reviews: REVIEWS.slice(3, 4), replace: false, dryRun: false });
    assert.ok(await eventually(async () => delivered.has('good'), 3000));
  });
});
