/**
 * Insights at scale: a full analysis of N reviews, an incremental pass after 1% of them
 * changed, and, as the floor to compare with, serialising the same reviews to JSON once.
 * Usage: npm run bench:insights [-- 100000]
 */
import { buildInsights } from '../src/core/insights/build.js';
import { AnalysisCache } from '../src/core/insights/per-review.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { benchReviews } from './lib/dataset.js';

const n = Number(process.argv[2] ?? 100_000);
const reviews = benchReviews(n);

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
}

const [, floor] = time(() => JSON.stringify(reviews));
const cache = new AnalysisCache();
const [full, fullMs] = time(() => buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z', cache));
const changed = reviews.map((r, i) => (i % 100 === 0 ? { ...r, text: `${r.text ?? ''} Update: they came back and fixed it under warranty.` } : r));
const missesBefore = cache.misses;
const [, incMs] = time(() => buildInsights(DEMO_BUSINESS, changed, '2026-11-22T00:00:01Z', cache));
const heap = process.memoryUsage().heapUsed / 2 ** 20;

console.log(`insights over ${n.toLocaleString('en')} reviews (${full.aspects.reduce((s, a) => s + a.mention_count, 0).toLocaleString('en')} aspect mentions)`);
console.table([
  { pass: 'baseline: JSON.stringify of the reviews', ms: Math.round(floor), 'reviews/s': Math.round(n / (floor / 1000)) },
  { pass: 'insights, full analysis', ms: Math.round(fullMs), 'reviews/s': Math.round(n / (fullMs / 1000)) },
  { pass: `insights, incremental (${cache.misses - missesBefore} changed)`, ms: Math.round(incMs), 'reviews/s': Math.round(n / (incMs / 1000)) },
]);
console.log(`heap used after both passes: ${heap.toFixed(0)} MiB`);
