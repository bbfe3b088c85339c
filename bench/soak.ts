/**
 * Soak: mixed load against one server process for a while (default 10 minutes), with a CLI
 * import every minute. Readers fetch the datasets and feeds, searchers send varied searches,
 * an MCP client calls tools, subscribers (HTTPS, on loopback) subscribe, unsubscribe and
 * receive every change of /reviews.json (which every import changes). Passes when no request
 * failed, every subscriber got every change, and the lowest resident memory of the last two
 * minutes is at most RSS_BOUND_MIB above the lowest of minutes 1-3.
 * Usage: npm run soak [-- seconds]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { deterministicUlid } from '../src/core/ids.js';
import { makeTestCa } from '../test/websub-helpers.js';
import { benchDatabase, benchReviews } from './lib/dataset.js';
import { freePort, startService } from './lib/service.js';
import { markdownTable } from './lib/table.js';

const seconds = Number(process.argv[2] ?? 600);
const RSS_BOUND_MIB = 50;
const SUBSCRIBERS = 20;
const dir = mkdtempSync(join(tmpdir(), 'rc-soak-'));
const ca = await makeTestCa();
writeFileSync(join(dir, 'ca.pem'), ca.caCert);

// Subscribers: count the deliveries each receives.
const received = new Map<string, number>();
const cbPort = await freePort();
const callbacks = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
  const url = new URL(req.url!, 'https://x');
  if (req.method === 'GET') return void res.writeHead(200).end(url.searchParams.get('hub.challenge'));
  req.resume();
  req.on('end', () => {
    received.set(url.pathname, (received.get(url.pathname) ?? 0) + 1);
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => callbacks.listen(cbPort, '127.0.0.1', r));

const database = await benchDatabase(10_000);
const service = await startService(database, {
  NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
  HUB_ALLOW_PRIVATE_CALLBACKS: 'true',
  HUB_RATE_LIMIT_PER_MINUTE: '100000',
  HUB_MAX_SUBSCRIPTIONS_PER_HOST: '1000',
});
const agent = new Agent({ connections: 16 });
const counts = new Map<string, { ok: number; failed: number }>();
const failures: string[] = [];

async function call(kind: string, path: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}, ok = (s: number) => s < 400) {
  const c = counts.get(kind) ?? { ok: 0, failed: 0 };
  counts.set(kind, c);
  try {
    const res = await request(`${service.url}${path}`, { ...init, dispatcher: agent });
    const text = await res.body.text();
    if (ok(res.statusCode)) c.ok++;
    else {
      c.failed++;
      if (failures.length < 20) failures.push(`${kind} ${path} -> ${res.statusCode} ${text.slice(0, 100)}`);
    }
    return { status: res.statusCode, headers: res.headers, text };
  } catch (err) {
    c.failed++;
    if (failures.length < 20) failures.push(`${kind} ${path} -> ${(err as Error).message}`);
    return null;
  }
}

const hubForm = (mode: string, path: string) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ 'hub.mode': mode, 'hub.topic': `${service.url}/reviews.json`, 'hub.callback': `https://127.0.0.1:${cbPort}${path}` }).toString(),
});
for (let i = 0; i < SUBSCRIBERS; i++) await call('subscribe', '/api/websub/hub', hubForm('subscribe', `/sub${i}`), (s) => s === 202);

const init = await call('mcp', '/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }),
});
const session = String(init?.headers['mcp-session-id']);

const until = Date.now() + seconds * 1000;
const words = ['on time', 'friendly', 'leak', 'price', 'rude', 'furnace', 'drain', 'tim', 'invoice 1'];
let n = 0;
const loops = [
  async () => {
    const paths = ['/reviews.json', '/api/feed.json', '/feed.xml', '/insights.json', '/', '/developers'];
    while (Date.now() < until) await call('read', paths[n++ % paths.length]!);
  },
  async () => {
    while (Date.now() < until) await call('search', `/api/reviews/search?query=${encodeURIComponent(words[n++ % words.length]!)}&min_rating=${(n % 5) + 1}&limit=${(n % 50) + 1}`);
  },
  async () => {
    while (Date.now() < until) {
      await call('mcp', '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: n++, method: 'tools/call', params: { name: 'search_reviews', arguments: { query: words[n % words.length], limit: 5 } } }),
      });
    }
  },
  async () => {
    // Churn: one extra subscriber comes and goes.
    while (Date.now() < until) {
      await call('subscribe', '/api/websub/hub', hubForm('subscribe', '/churn'), (s) => s === 202);
      await new Promise((r) => setTimeout(r, 2000));
      await call('subscribe', '/api/websub/hub', hubForm('unsubscribe', '/churn'), (s) => s === 202);
      await new Promise((r) => setTimeout(r, 2000));
    }
  },
];

const bin = fileURLToPath(new URL('../bin/reviewcast.js', import.meta.url));
let imports = 0;
const rss: { t: number; mib: number }[] = [];
const t0 = Date.now();
const importer = (async () => {
  while (Date.now() + 60_000 <= until) {
    await new Promise((r) => setTimeout(r, 60_000));
    const file = join(dir, `batch-${imports}.json`);
    const batch = benchReviews(100).map((r, i) => ({ ...r, id: deterministicUlid(`soak-${imports}-${i}`, r.date) }));
    writeFileSync(file, JSON.stringify(batch));
    execFileSync(process.execPath, [bin, 'import', file], { env: { ...process.env, DATABASE_URL: database }, stdio: 'ignore' });
    imports++;
  }
})();
const sampler = setInterval(() => rss.push({ t: (Date.now() - t0) / 1000, mib: service.rssMiB() }), 10_000);
await Promise.all([...loops.map((l) => l()), importer]);
clearInterval(sampler);
// Let the last change reach everyone.
await new Promise((r) => setTimeout(r, 5000));
await service.stop();
callbacks.close();
await agent.close();

// RSS saws up and down with every rebuild and delivery round; the troughs are what stays live.
const trough = (samples: typeof rss) => Math.min(...samples.map((x) => x.mib));
const warm = { t: 60, mib: trough(rss.filter((x) => x.t >= 60 && x.t < 180)) };
const last = { t: seconds, mib: trough(rss.slice(-12)) };
const growth = last.mib - warm.mib;
const missed = Array.from({ length: SUBSCRIBERS }, (_, i) => received.get(`/sub${i}`) ?? 0).filter((c) => c < imports);
const failed = [...counts.values()].reduce((s, c) => s + c.failed, 0);
console.log(`\nsoak: ${seconds} s, ${imports} imports of 100 reviews, ${SUBSCRIBERS} subscribers\n`);
console.log(markdownTable([...counts].map(([kind, c]) => ({ kind, ok: c.ok, failed: c.failed }))));
console.log(`\nRSS troughs: 60-180 s ${warm.mib.toFixed(0)} MiB, last 2 minutes ${last.mib.toFixed(0)} MiB; growth ${growth.toFixed(0)} MiB (bound ${RSS_BOUND_MIB})`);
console.log(`RSS samples: ${rss.map((s) => s.mib.toFixed(0)).join(' ')}`);
console.log(`subscribers short of ${imports} deliveries: ${missed.length}`);
for (const f of failures) console.log(`failure: ${f}`);
const pass = failed === 0 && missed.length === 0 && growth <= RSS_BOUND_MIB;
console.log(pass ? 'PASS' : 'FAIL');
process.exit(pass ? 0 : 1);
