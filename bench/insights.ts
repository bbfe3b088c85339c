/**
 * Insights at scale: a full analysis of N reviews, an incremental pass after 1% of them
 * changed, and, as the floor to compare with, serialising the same reviews to JSON once.
 * Wall time and CPU time of each pass (CPU includes V8's GC helper threads), and the load
 * average: on a shared machine CPU time is the figure to compare. And the live heap after both
 * passes (forced collections), with the analyses kept and the document held.
 * Usage: npm run bench:insights [-- 100000]
 */
import { loadavg } from 'node:os';
import { buildInsights } from '../src/core/insights/build.js';
import { AnalysisCache } from '../src/core/insights/per-review.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { benchReviews } from './lib/dataset.js';

const n = Number(process.argv[2] ?? 100_000);
const reviews = benchReviews(n);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' / ');
const loadBefore = load();

function time<T>(fn: () => T): [T, number, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = fn();
  const c = process.cpuUsage(c0);
  return [out, performance.now() - t0, (c.user + c.system) / 1000];
}

const [, floor, floorCpu] = time(() => JSON.stringify(reviews));
const cache = new AnalysisCache();
const [full, fullMs, fullCpu] = time(() => buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z', cache));
const changed = reviews.map((r, i) => (i % 100 === 0 ? { ...r, text: `${r.text ?? ''} Update: they came back and fixed it under warranty.` } : r));
const missesBefore = cache.misses;
const [, incMs, incCpu] = time(() => buildInsights(DEMO_BUSINESS, changed, '2026-11-22T00:00:01Z', cache));
const heap = process.memoryUsage().heapUsed / 2 ** 20;
// What stays live (the kept analyses and the document, both read below, and the model): two forced collections first (npm run bench:insights passes --expose-gc).
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
gc?.();
const live = gc ? process.memoryUsage().heapUsed / 2 ** 20 : null;

console.log(`insights over ${n.toLocaleString('en')} reviews (${full.aspects.reduce((s, a) => s + a.mention_count, 0).toLocaleString('en')} aspect mentions)`);
const row = (pass: string, ms: number, cpu: number) => ({ pass, ms: Math.round(ms), 'cpu ms': Math.round(cpu), 'reviews/s': Math.round(n / (ms / 1000)) });
console.table([
  row('baseline: JSON.stringify of the reviews', floor, floorCpu),
  row('insights, full analysis', fullMs, fullCpu),
  row(`insights, incremental (${cache.misses - missesBefore} changed)`, incMs, incCpu),
]);
console.log(`heap used after both passes: ${heap.toFixed(0)} MiB`);
console.log(
  live === null
    ? 'live heap: not measured (run with node --expose-gc)'
    : `live heap after two forced collections, ${n.toLocaleString('en')} analyses kept and the document held: ${live.toFixed(1)} MiB`,
);
console.log(`load average (1 / 5 / 15 min): ${loadBefore} before, ${load()} after`);
