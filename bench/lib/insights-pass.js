// @ts-check
/**
 * The measuring half of bench/insights.ts, run in a process of its own on a checkout's built
 * JavaScript (dist/) without tsx, as `npm start` runs the service: under tsx a JSON module's
 * source text and each of its keys stay live (model.json: 14 MiB), which the service never holds.
 * Usage: node --expose-gc bench/lib/insights-pass.js <checkout root> <input.json>; prints JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, input] = process.argv.slice(2);
if (!root || !input) throw new Error('usage: insights-pass.js <checkout root> <input.json>');
/** @type {{ business: unknown, reviews: { text: string | null }[] }} */
const { business, reviews } = JSON.parse(readFileSync(input, 'utf8'));
/** @param {string} path */
const built = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { buildInsights } = await built('core/insights/build.js');
const { AnalysisCache } = await built('core/insights/per-review.js');

/**
 * Wall and CPU time of one call (CPU includes V8's GC helper threads).
 * @template T
 * @param {() => T} fn
 * @returns {[T, number, number]}
 */
function time(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = fn();
  const c = process.cpuUsage(c0);
  return [out, performance.now() - t0, (c.user + c.system) / 1000];
}

const [, floorMs, floorCpu] = time(() => JSON.stringify(reviews));
const cache = new AnalysisCache();
const [full, fullMs, fullCpu] = time(() => buildInsights(business, reviews, '2026-11-22T00:00:00Z', cache));
const changed = reviews.map((r, i) => (i % 100 === 0 ? { ...r, text: `${r.text ?? ''} Update: they came back and fixed it under warranty.` } : r));
const missesBefore = cache.misses;
const [, incMs, incCpu] = time(() => buildInsights(business, changed, '2026-11-22T00:00:01Z', cache));
const heapAfter = process.memoryUsage().heapUsed;
// What stays live (the reviews, the kept analyses, the document read below, and the model): two forced collections first.
const gc = /** @type {{ gc?: () => void }} */ (globalThis).gc;
if (!gc) throw new Error('run with node --expose-gc');
gc();
gc();
const { heapUsed, arrayBuffers } = process.memoryUsage();
/** @type {{ mention_count: number }[]} */
const aspects = full.aspects;
process.stdout.write(
  JSON.stringify({
    mentions: aspects.reduce((s, a) => s + a.mention_count, 0),
    changed: cache.misses - missesBefore,
    floorMs,
    floorCpu,
    fullMs,
    fullCpu,
    incMs,
    incCpu,
    heapAfter,
    heapUsed,
    arrayBuffers,
  }),
);
