/**
 * Insights at scale: a full analysis of N reviews, an incremental pass after 1% of them
 * changed, and, as the floor to compare with, serialising the same reviews to JSON once.
 * Wall time and CPU time of each pass (CPU includes V8's GC helper threads), and the load
 * average: on a shared machine CPU time is the figure to compare. And the memory left live
 * after both passes (forced collections), with the analyses kept and the document held: the JS
 * heap and the typed arrays' buffers outside it (the model's weights).
 * The passes run in a child process on the built JavaScript, as `npm start` runs it
 * (bench/lib/insights-pass.js); `--root=DIR` measures another checkout's `dist/` the same way (build it first).
 * The reviews are benchReviews (the demo texts recombined, as every bench's), or with
 * `--sentences` sentenceReviews (the labelled sentences of eval/, far more varied).
 * Usage: npm run bench:insights [-- 100000] [--root=DIR] [--sentences]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { benchReviews, sentenceReviews } from './lib/dataset.js';

const args = process.argv.slice(2);
const n = Number(args.find((a) => !a.startsWith('--')) ?? 100_000);
const root = args.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? fileURLToPath(new URL('..', import.meta.url));
const sentences = args.includes('--sentences');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' / ');

const dir = mkdtempSync(join(tmpdir(), 'rc-bench-insights-'));
let out: { mentions: number; changed: number; floorMs: number; floorCpu: number; fullMs: number; fullCpu: number; incMs: number; incCpu: number; heapAfter: number; heapUsed: number; arrayBuffers: number };
const loadBefore = load();
try {
  const input = join(dir, 'input.json');
  writeFileSync(input, JSON.stringify({ business: DEMO_BUSINESS, reviews: sentences ? sentenceReviews(n) : benchReviews(n) }));
  const run = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(new URL('./lib/insights-pass.js', import.meta.url)), root, input], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`insights-pass failed (${run.status}): ${run.stderr}`);
  out = JSON.parse(run.stdout) as typeof out;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
console.log(`insights over ${n.toLocaleString('en')} ${sentences ? 'reviews of labelled sentences' : 'bench reviews'} (${out.mentions.toLocaleString('en')} aspect mentions), built code of ${root}`);
const row = (pass: string, ms: number, cpu: number) => ({ pass, ms: Math.round(ms), 'cpu ms': Math.round(cpu), 'reviews/s': Math.round(n / (ms / 1000)) });
console.table([
  row('baseline: JSON.stringify of the reviews', out.floorMs, out.floorCpu),
  row('insights, full analysis', out.fullMs, out.fullCpu),
  row(`insights, incremental (${out.changed} changed)`, out.incMs, out.incCpu),
]);
console.log(`heap used after both passes: ${mib(out.heapAfter)} MiB`);
console.log(
  `live after two forced collections, ${n.toLocaleString('en')} analyses kept and the document held: heap ${mib(out.heapUsed)} MiB, array buffers ${mib(out.arrayBuffers)} MiB, together ${mib(out.heapUsed + out.arrayBuffers)} MiB`,
);
console.log(`load average (1 / 5 / 15 min): ${loadBefore} before, ${load()} after`);
