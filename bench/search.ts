/**
 * Search at scale. In process, the one search function (indexed) against a naive full scan of
 * the same reviews, at 100k and 1M reviews: the first call of each search (which builds the
 * filter lists it needs) and the p50/p99 of 200 more. Over HTTP, our server (its own process, fresh
 * SQLite database with 100k reviews) driven by wrk cycling through 620 variants of each search
 * (limit and a no-op date bound vary), with the server's CPU time per request and, at the end,
 * its memory before and after a forced GC. With BENCH_BEFORE, another built checkout's server runs
 * beside it, alternating per search. Targets: at 100k p99 <= 5 ms and >= 5k req/s over HTTP; at 1M p99 <= 50 ms.
 * Usage: [BENCH_BEFORE=/built/checkout] npm run bench:search [-- seconds [sizes]]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { buildReviewIndex, searchReviews } from '../src/core/search.js';
import type { SearchRequest } from '../src/core/schema/search.js';
import { benchDatabase, benchReviews, invoice } from './lib/dataset.js';
import { wrk } from './lib/load.js';
import { naiveSearch } from './lib/naive-search.js';
import { freePort, startService } from './lib/service.js';
import { percentile } from './lib/stats.js';
import { InspectorSession } from './lib/inspector.js';
import { markdownTable } from './lib/table.js';

const seconds = Number(process.argv[2] ?? 3);
const sizes = (process.argv[3] ?? '100000,1000000').split(',').map(Number);
const HTTP_SIZE = 100_000;
const CONNECTIONS = 8;
/** Another checkout, built, whose server is measured beside this one's over HTTP (BENCH_BEFORE=/path/to/checkout). */
const BEFORE = process.env.BENCH_BEFORE;
const memory: string[] = [];

function cases(n: number): { name: string; q: SearchRequest }[] {
  return [
    { name: 'rating=5', q: { rating: 5 } },
    { name: 'min_rating=4', q: { min_rating: 4 } },
    { name: 'since=2026-06-01', q: { since: '2026-06-01' } },
    { name: 'until=2025-06-30', q: { until: '2025-06-30' } },
    { name: 'mentions_technician=Marco', q: { mentions_technician: 'Marco' } },
    { name: 'mentions_service=water_heater', q: { mentions_service: 'water_heater' } },
    { name: 'query, common phrase "on time"', q: { query: 'on time' } },
    { name: 'query, common word part "tim"', q: { query: 'tim' } },
    { name: 'query, rare word "sloppy"', q: { query: 'sloppy' } },
    { name: 'query, one review "invoice N"', q: { query: `invoice ${invoice(Math.floor(n / 2))}.` } },
    { name: 'query, no match "zzqx"', q: { query: 'zzqx' } },
    { name: 'mix: "rude" + rating=1', q: { query: 'rude', rating: 1 } },
    { name: 'mix: min_rating=4 + service + since', q: { min_rating: 4, mentions_service: 'ac_repair', since: '2026-01-01' } },
    { name: 'mix: technician + "friendly" + until', q: { mentions_technician: 'Priya', query: 'friendly', until: '2026-06-30' } },
  ].map((c) => ({ ...c, q: { limit: 20, ...c.q } }));
}

function percentiles(samples: number[]): { p50: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
}

function timeRuns(fn: () => unknown, runs: number): { p50: number; p99: number } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return percentiles(samples);
}

const inProcess: Record<string, string | number | boolean>[] = [];
for (const n of sizes) {
  const reviews = benchReviews(n);
  const t0 = performance.now();
  const index = buildReviewIndex(DEMO_BUSINESS, reviews, 'bench');
  index.words();
  const buildMs = performance.now() - t0;
  const target = n <= HTTP_SIZE ? 5 : 50;
  for (const c of cases(n)) {
    // The first call builds and keeps the filters this search needs; later ones reuse them.
    const c0 = performance.now();
    const ours = searchReviews(index, c.q);
    const coldMs = performance.now() - c0;
    const naive = naiveSearch(DEMO_BUSINESS, index.reviews, c.q);
    const same = ours.matched === naive.matched && ours.reviews.every((r, i) => r.id === naive.reviews[i]?.id);
    const o = timeRuns(() => searchReviews(index, c.q), 200);
    const b = timeRuns(() => naiveSearch(DEMO_BUSINESS, index.reviews, c.q), n > HTTP_SIZE ? 5 : 20);
    inProcess.push({
      reviews: n,
      search: c.name,
      matched: ours.matched,
      'ours first call ms': coldMs.toFixed(1),
      'ours p50/p99 ms': `${o.p50.toFixed(2)} / ${o.p99.toFixed(2)}`,
      'naive scan p50 ms': b.p50.toFixed(1),
      speed_up: `${(b.p50 / Math.max(o.p50, 0.001)).toFixed(0)}x`,
      'same result': same,
      target: `${o.p99 <= target ? 'met' : 'missed'} (p99 <= ${target} ms)`,
    });
  }
  console.error(`${n} reviews: index built in ${buildMs.toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
}

const http: Record<string, string | number>[] = [];
/** A server with an inspector port, to read its live memory after a forced GC; each on its own database (an older build refuses a schema this one has migrated). */
async function startInspected(root?: string) {
  const inspectPort = await freePort();
  const service = await startService(await benchDatabase(HTTP_SIZE, root), { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` }, root);
  // Its peak over the start (documents made for its origin), apart from the searches'.
  return { service, inspectPort, startPeak: service.peakRssMiB() };
}
const servers = [{ name: 'after', ...(await startInspected()) }];
if (BEFORE) servers.push({ name: 'before', ...(await startInspected(BEFORE)) });
const scriptDir = mkdtempSync(join(tmpdir(), 'rc-wrk-'));
/** A wrk script that cycles through `paths`. */
function cycleScript(name: string, paths: string[]): string {
  const script = join(scriptDir, name);
  writeFileSync(script, `local paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`);
  return script;
}
// Unmeasured warm-up, every search in turn: otherwise the first search measured pays for the
// process's first seconds (code not yet optimised, start-up garbage) and the last ones do not.
const warmUp = cycleScript('warm.lua', cases(HTTP_SIZE).map((c) => `/api/reviews/search?${new URLSearchParams(Object.entries(c.q).map(([k, v]) => [k, String(v)]))}`));
for (const { service } of servers) wrk(service.url, { seconds, connections: CONNECTIONS, script: warmUp, pid: service.pid });
for (const c of cases(HTTP_SIZE)) {
  const paths: string[] = [];
  for (let limit = 11; limit <= 30; limit++) {
    for (let day = 1; day <= 31; day++) {
      const params = new URLSearchParams(Object.entries({ ...c.q, limit }).map(([k, v]) => [k, String(v)]));
      // A date bound outside every review's date varies the request, not the result.
      const dd = String(day).padStart(2, '0');
      if (c.q.since === undefined) params.set('since', `2000-01-${dd}`);
      else params.set('until', `2099-12-${dd}`);
      paths.push(`/api/reviews/search?${params}`);
    }
  }
  const script = cycleScript('cycle.lua', paths);
  const row: Record<string, string | number> = { search: c.name };
  // Alternating: each server's run follows the other's, so both see the same machine.
  for (const { name, service } of BEFORE ? [...servers].reverse() : servers) {
    await fetch(`${service.url}${paths[0]}`);
    const r = wrk(service.url, { seconds, connections: CONNECTIONS, script, pid: service.pid });
    const label = BEFORE ? `${name} ` : '';
    row[`${label}req/s`] = Math.round(r.rps);
    row[`${label}p50 / p99 ms`] = `${r.p50ms.toFixed(2)} / ${r.p99ms.toFixed(2)}`;
    row[`${label}CPU µs/req`] = r.cpuUs.toFixed(0);
    row[`${label}errors`] = r.errors;
    if (name === 'after') row['p99 <= 5 ms and >= 5k req/s'] = r.p99ms <= 5 && r.rps >= 5000 ? 'met' : 'missed';
  }
  http.push(row);
  console.error(JSON.stringify(row));
}
for (const { name, service, inspectPort, startPeak } of servers) {
  const inspector = await InspectorSession.connect(inspectPort);
  const live = await inspector.memoryAfterGc();
  inspector.close();
  memory.push(`${name}: peak RSS ${startPeak.toFixed(0)} MiB when ready, ${service.peakRssMiB().toFixed(0)} MiB after the searches; after a forced full GC heap ${live.heapUsed.toFixed(0)} MiB used of ${live.heapTotal.toFixed(0)}, RSS ${service.rssMiB().toFixed(0)} MiB, buffers ${live.arrayBuffers.toFixed(0)} MiB`);
  await service.stop();
}

console.log('\nIn process: the indexed search against a naive full scan, limit 20\n');
console.log(markdownTable(inProcess));
console.log(`\nOver HTTP, ${HTTP_SIZE.toLocaleString('en')} reviews, ${CONNECTIONS} connections, wrk 1 thread, ${seconds}s each, 620 variants of each search\n`);
console.log(markdownTable(http));
for (const line of memory) console.log(`\n${line}`);
