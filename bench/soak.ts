/**
 * Soak: mixed load against one server process for a while (default 10 minutes), with a CLI
 * import every minute. Readers fetch the datasets and feeds, searchers send varied searches,
 * an MCP client calls tools, subscribers (HTTPS, on loopback) subscribe, unsubscribe and
 * receive every change of /reviews.json (which every import changes).
 *
 * Each import replaces the data with 100 reviews fewer and 100 new ones, so the service holds
 * 10,000 reviews throughout and memory has no reason to grow: what does grow is a leak. Before
 * every import and at the end, the soak forces a full garbage collection in the server (over the
 * inspector protocol) and reads its resident set and live heap; between collections both saw
 * up and down with garbage waiting for V8, which says nothing about what stays.
 *
 * Passes when no request failed, every subscriber got every change, and from the reading before
 * the second import (one whole import-and-deliver cycle in) to the last, resident memory grew
 * at most RSS_BOUND_MIB and the live heap at most HEAP_BOUND_MIB.
 * Usage: npm run soak [-- seconds]   (at least 180)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { deterministicUlid } from '../src/core/ids.js';
import { makeTestCa } from '../test/websub-helpers.js';
import { benchDatabase, benchReviews } from './lib/dataset.js';
import { InspectorSession, type MemoryMiB } from './lib/inspector.js';
import { freePort, startService } from './lib/service.js';
import { markdownTable } from './lib/table.js';

const seconds = Number(process.argv[2] ?? 600);
if (!(seconds >= 180)) throw new Error('the soak needs at least 180 s: two import cycles before the last reading');
const RSS_BOUND_MIB = 50;
const HEAP_BOUND_MIB = 10;
const REVIEWS = 10_000;
const BATCH = 100;
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

const database = await benchDatabase(REVIEWS);
const inspectPort = await freePort();
const service = await startService(database, {
  NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`,
  NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
  HUB_ALLOW_PRIVATE_CALLBACKS: 'true',
  HUB_RATE_LIMIT_PER_MINUTE: '100000',
  HUB_MAX_SUBSCRIPTIONS_PER_HOST: '1000',
  HUB_MAX_SUBSCRIPTIONS_PER_CLIENT: '1000',
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
const runCli = promisify(execFile);
const inspector = await InspectorSession.connect(inspectPort);
const t0 = Date.now();
const elapsed = () => (Date.now() - t0) / 1000;
/** After a forced full collection: what the server really holds. */
const readings: { t: number; m: MemoryMiB }[] = [];
const read = async () => readings.push({ t: elapsed(), m: await inspector.memoryAfterGc() });
/** Between collections, every 10 s: the saw, for the peak. */
const saw: { t: number; m: MemoryMiB }[] = [];
const sampler = setInterval(() => void inspector.memory().then((m) => saw.push({ t: elapsed(), m })), 10_000);

const base = benchReviews(REVIEWS);
let imports = 0;
const importer = (async () => {
  while (Date.now() + 60_000 <= until) {
    await new Promise((r) => setTimeout(r, 60_000));
    await read();
    // Drop the 100 oldest of what is loaded, add 100 new: the count stays at REVIEWS.
    const added = Array.from({ length: imports + 1 }, (_, k) =>
      benchReviews(BATCH).map((r, i) => ({ ...r, id: deterministicUlid(`soak-${k}-${i}`, r.date) })),
    ).flat();
    const file = join(dir, `import-${imports}.json`);
    writeFileSync(file, JSON.stringify([...base.slice(0, REVIEWS - added.length), ...added]));
    await runCli(process.execPath, [bin, 'import', '--replace', file], { env: { ...process.env, DATABASE_URL: database } });
    imports++;
  }
})();
await Promise.all([...loops.map((l) => l()), importer]);
clearInterval(sampler);
// Let the last change reach everyone.
await new Promise((r) => setTimeout(r, 5000));
await read();
inspector.close();
const peakMiB = service.peakRssMiB();
await service.stop();
callbacks.close();
await agent.close();

const first = readings[1]!;
const last = readings.at(-1)!;
const rssGrowth = last.m.rss - first.m.rss;
const heapGrowth = last.m.heapUsed - first.m.heapUsed;
const missed = Array.from({ length: SUBSCRIBERS }, (_, i) => received.get(`/sub${i}`) ?? 0).filter((c) => c < imports);
const failed = [...counts.values()].reduce((s, c) => s + c.failed, 0);
const mib = (x: number) => x.toFixed(0);
console.log(`\nsoak: ${seconds} s, ${imports} imports (each ${BATCH} reviews out, ${BATCH} in; ${REVIEWS} held), ${SUBSCRIBERS} subscribers\n`);
console.log(markdownTable([...counts].map(([kind, c]) => ({ kind, ok: c.ok, failed: c.failed }))));
console.log('\nAfter a forced full GC, before each import and at the end (MiB):\n');
console.log(markdownTable(readings.map(({ t, m }) => ({ 's': t.toFixed(0), rss: mib(m.rss), 'heap used (live)': mib(m.heapUsed), 'heap committed': mib(m.heapTotal), external: mib(m.external) }))));
const sawRss = saw.map((x) => x.m.rss);
console.log(`\nBetween collections: RSS ${mib(Math.min(...sawRss))}-${mib(Math.max(...sawRss))} MiB, heap used ${mib(Math.min(...saw.map((x) => x.m.heapUsed)))}-${mib(Math.max(...saw.map((x) => x.m.heapUsed)))} MiB; peak RSS (VmHWM) ${mib(peakMiB)} MiB`);
console.log(`From ${first.t.toFixed(0)} s to ${last.t.toFixed(0)} s: RSS ${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)} MiB (bound ${RSS_BOUND_MIB}), live heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MiB (bound ${HEAP_BOUND_MIB})`);
console.log(`subscribers short of ${imports} deliveries: ${missed.length}`);
for (const f of failures) console.log(`failure: ${f}`);
const pass = failed === 0 && missed.length === 0 && rssGrowth <= RSS_BOUND_MIB && heapGrowth <= HEAP_BOUND_MIB;
console.log(pass ? 'PASS' : 'FAIL');
process.exit(pass ? 0 : 1);
