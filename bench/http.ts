/**
 * Serving the datasets against nginx serving the very same bytes, at 1k, 10k and 100k reviews.
 * Our server runs as its own process (bin/reviewcast.js over a fresh SQLite database), nginx
 * from Debian's package with a generated config, and wrk drives both from a third process,
 * alternating runs so both see the same machine. Target: >= 0.9 x nginx throughput. A second
 * baseline, bare node:http answering from memory with the same bytes (bare-node-server.ts),
 * shows how much of the gap is Node itself and how much is ours. A third, "nginx in front of
 * reviewcast", is deploy/nginx.conf's cache before our server (target >= 0.9 x nginx from disk);
 * after the table a change is imported and timed until it shows through the cache, which must be
 * within the max-age our server declares.
 * Each run also reads the CPU time each server process spent (bench/lib/cpu.ts): CPU µs per
 * request holds on a loaded machine where requests per second do not; the hot-path target is
 * bare node's CPU per request / ours >= 0.95 for small bodies and 304s. Before any of it, every
 * server answers each path and variant for a second, unmeasured (a warm-up, as in bench:search).
 * Each row runs every server BENCH_ROUNDS times in turn (5 unless set); figures are medians, and each
 * target's ratio is the median of the rounds' ratios, with their range.
 * Usage: [BENCH_BEFORE=/built/checkout] [BENCH_ROUNDS=5] npm run bench:http [-- seconds [sizes]]   e.g. npm run bench:http -- 3 1000,10000
 */
import { request } from 'undici';
import { benchDatabase, benchReviews } from './lib/dataset.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { OutgoingHttpHeaders } from 'node:http';
import { startBareNode, type BareFile } from './lib/bare-node.js';
import { startNginx, startNginxInFront } from './lib/nginx.js';
import { startService } from './lib/service.js';
import { medianLoad, pairedRatio, wrk, type LoadResult } from './lib/load.js';
import { markdownTable } from './lib/table.js';

const seconds = Number(process.argv[2] ?? 3);
const sizes = (process.argv[3] ?? '1000,10000,100000').split(',').map(Number);
/** Alternating rounds per row (BENCH_ROUNDS): the machines this runs on spread +-20% from one 3 s run to the next. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS must be a whole number of rounds, 1 or more (got "${process.env.BENCH_ROUNDS}")`);
/** Another checkout, built, to measure as "before" in the same run (BENCH_BEFORE=/path/to/checkout). */
const BEFORE = process.env.BENCH_BEFORE;
const CONNECTIONS = 32;
const PATHS = ['/reviews.json', '/api/feed.json', '/feed.xml'];

/** The bytes as sent: undici's request, unlike fetch, does not decode the content coding. */
async function fetchVariant(url: string, headers: Record<string, string>) {
  const res = await request(url, { headers });
  return { headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

const rows: Record<string, string | number>[] = [];
const visibility: string[] = [];

/** One review newer than any, written to the database as an import would (the server finds it by its file watch). */
async function importOneReview(db: string): Promise<void> {
  const store = openSqliteStore(db);
  const [newest] = benchReviews(1);
  await store.importReviews({ reviews: [{ ...newest!, id: '01KZZZZZZZZZZZZZZZZZZZZZZZ', date: '2099-01-01', text: 'A change to see through the cache.' }], replace: false, dryRun: false });
  await store.close();
}

/** Imports one new review and times how long until /api/feed.json through the cache shows it; the bound is our max-age. */
async function changeThroughCache(frontUrl: string, db: string): Promise<string> {
  const before = await fetch(`${frontUrl}/api/feed.json`);
  const maxAge = Number(/max-age=(\d+)/.exec(before.headers.get('cache-control') ?? '')?.[1]);
  const tag = before.headers.get('etag');
  await before.arrayBuffer();
  const started = Date.now();
  await importOneReview(db);
  for (;;) {
    const res = await fetch(`${frontUrl}/api/feed.json`);
    await res.arrayBuffer();
    if (res.headers.get('etag') !== tag) break;
    if (Date.now() - started > (maxAge + 30) * 1000) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const s = (Date.now() - started) / 1000;
  return `a new review visible through the cache after ${s.toFixed(1)} s (declared max-age ${maxAge} s): ${s <= maxAge + 1 ? 'met' : 'missed'}`;
}
/** Our headers as sent, for the bare baseline to send the same: Date and Connection are Node's own. */
function sentHeaders(headers: Record<string, string | string[] | undefined>): OutgoingHttpHeaders {
  const rest: OutgoingHttpHeaders = { ...headers };
  for (const name of ['date', 'connection', 'keep-alive']) delete rest[name];
  return rest;
}

const us = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

for (const n of sizes) {
  const db = await benchDatabase(n);
  const ours = await startService(db);
  // Its own database: an older build refuses a schema this one has migrated.
  const before = BEFORE ? await startService(await benchDatabase(n, BEFORE), {}, BEFORE) : null;
  const files: Record<string, BareFile & { type: string }> = {};
  for (const path of PATHS) {
    const plain = await fetchVariant(`${ours.url}${path}`, { 'accept-encoding': 'identity' });
    const gz = await fetchVariant(`${ours.url}${path}`, { 'accept-encoding': 'gzip' });
    const etag = String(plain.headers.etag);
    const notModified = await fetchVariant(`${ours.url}${path}`, { 'if-none-match': etag });
    files[path] = {
      body: plain.body,
      gzip: gz.headers['content-encoding'] === 'gzip' ? gz.body : null,
      type: String(plain.headers['content-type']),
      etag,
      headers: { identity: sentHeaders(plain.headers), gzip: sentHeaders(gz.headers), notModified: sentHeaders(notModified.headers) },
    };
  }
  const nginx = await startNginx(files);
  const bare = await startBareNode(files);
  const front = await startNginxInFront(ours.url, PATHS[0]!);
  const variantsOf = async (path: string) => {
    const nginxTag = (await fetch(`${nginx.url}${path}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } })).headers.get('etag')!;
    // Each server has its own base URL (port), which some bodies hold, hence its own ETag.
    const beforeTag = before ? String((await fetchVariant(`${before.url}${path}`, { 'accept-encoding': 'identity' })).headers.etag) : '';
    const variants: { name: string; ours: Record<string, string>; base: Record<string, string>; before: Record<string, string> }[] = [
      { name: 'identity', ours: { 'accept-encoding': 'identity' }, base: { 'accept-encoding': 'identity' }, before: { 'accept-encoding': 'identity' } },
      { name: 'gzip', ours: { 'accept-encoding': 'gzip' }, base: { 'accept-encoding': 'gzip' }, before: { 'accept-encoding': 'gzip' } },
      { name: '304', ours: { 'if-none-match': files[path]!.etag }, base: { 'if-none-match': nginxTag }, before: { 'if-none-match': beforeTag } },
    ];
    return variants;
  };
  // Every server first answers each path and variant of the run for a second, unmeasured: a process's
  // first seconds (code not yet optimised, modules loaded after it listens) are a start's cost,
  // which bench:import measures, and would otherwise fall on whichever row came first.
  for (const path of PATHS) {
    for (const v of await variantsOf(path)) {
      for (const [target, headers] of [[front, v.ours], [ours, v.ours], [nginx, v.base], [bare, v.ours], ...(before ? [[before, v.before] as const] : [])] as const) {
        wrk(`${target.url}${path}`, { seconds: 1, connections: CONNECTIONS, headers });
      }
    }
  }
  for (const path of PATHS) {
    for (const v of await variantsOf(path)) {
      const runs = { ours: [] as LoadResult[], before: [] as LoadResult[], nginx: [] as LoadResult[], bare: [] as LoadResult[], front: [] as LoadResult[] };
      const load = (url: string, headers: Record<string, string>, pid: number) => wrk(`${url}${path}`, { seconds, connections: CONNECTIONS, headers, pid });
      for (let round = 0; round < ROUNDS; round++) {
        runs.front.push(load(front.url, v.ours, front.pid));
        runs.ours.push(load(ours.url, v.ours, ours.pid));
        runs.nginx.push(load(nginx.url, v.base, nginx.pid));
        runs.bare.push(load(bare.url, v.ours, bare.pid));
        if (before) runs.before.push(load(before.url, v.before, before.pid));
      }
      const o = medianLoad(runs.ours);
      const g = medianLoad(runs.nginx);
      const n0 = medianLoad(runs.bare);
      const f = medianLoad(runs.front);
      const b = before ? medianLoad(runs.before) : null;
      // The targets' ratios are taken round by round, then their median (the range says how far the rounds spread).
      const vsNginx = pairedRatio(runs.ours, runs.nginx, (r) => r.rps);
      const cpu = pairedRatio(runs.bare, runs.ours, (r) => r.cpuUs);
      const inFront = pairedRatio(runs.front, runs.nginx, (r) => r.rps);
      const range = (x: { min: number; max: number }) => `${x.min.toFixed(2)}-${x.max.toFixed(2)}`;
      rows.push({
        reviews: n,
        path,
        variant: v.name,
        bytes: v.name === 'gzip' ? (files[path]!.gzip ?? files[path]!.body).length : v.name === '304' ? 0 : files[path]!.body.length,
        'ours req/s': Math.round(o.rps),
        ...(b ? { 'before req/s': Math.round(b.rps) } : {}),
        'bare node req/s': Math.round(n0.rps),
        'nginx req/s': Math.round(g.rps),
        'in front req/s': Math.round(f.rps),
        'ours CPU µs/req': us(o.cpuUs),
        ...(b ? { 'before CPU µs/req': us(b.cpuUs) } : {}),
        'bare node CPU µs/req': us(n0.cpuUs),
        'nginx CPU µs/req': us(g.cpuUs),
        'in front CPU µs/req (nginx only)': us(f.cpuUs),
        'ours / nginx req/s': vsNginx.median.toFixed(2),
        'ours / bare req/s': (o.rps / n0.rps).toFixed(2),
        'bare / ours CPU': cpu.median.toFixed(2),
        'bare / ours CPU, rounds': range(cpu),
        'in front / nginx req/s': inFront.median.toFixed(2),
        'in front / nginx, rounds': range(inFront),
        'nginx / in front CPU': (g.cpuUs / f.cpuUs).toFixed(2),
        'ours p50/p99 ms': `${o.p50ms.toFixed(2)} / ${o.p99ms.toFixed(2)}`,
        // Every error of every round: a median would hide errors in a minority of them.
        errors: Object.values(runs).flat().reduce((sum, r) => sum + r.errors, 0),
        'nginx: >= 0.9': vsNginx.median >= 0.9 ? 'met' : 'missed',
        'bare CPU: >= 0.95': cpu.median >= 0.95 ? 'met' : 'missed',
        'in front: >= 0.9': inFront.median >= 0.9 ? 'met' : 'missed',
      });
      console.error(JSON.stringify(rows.at(-1)));
    }
  }
  if (n === sizes.at(-1)) visibility.push(await changeThroughCache(front.url, db));
  nginx.stop();
  bare.stop();
  front.stop();
  await ours.stop();
  await before?.stop();
}
console.log(`\n${CONNECTIONS} connections, wrk 1 thread, ${ROUNDS} alternating rounds of ${seconds}s per target; figures are medians over the rounds, the targets' ratios the median of each round's ratio (their range in the "rounds" columns), errors summed over the rounds\n`);
console.log(markdownTable(rows));
for (const line of visibility) console.log(`\n${line}`);
