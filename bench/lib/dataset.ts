import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetJson } from '../../src/core/dataset.js';
import { DEMO_BUSINESS } from '../../src/core/demo/business.js';
import { demoReviews } from '../../src/core/demo/reviews.js';
import { deterministicUlid } from '../../src/core/ids.js';
import { sortNewestFirst } from '../../src/core/reviews.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import type { Review } from '../../src/core/schema/review.js';

/**
 * N distinct reviews recombined from the demo texts, newest first: realistic words at any
 * scale. Each text also names an invoice number, so the vocabulary grows with N as real
 * text's does, and a search can hit a single review.
 */
export function benchReviews(n: number): Review[] {
  const base = demoReviews(320);
  return sortNewestFirst(
    Array.from({ length: n }, (_, i) => {
      const a = base[i % base.length]!;
      const b = base[(i * 7 + 3) % base.length]!;
      return { ...a, id: deterministicUlid(`bench-${i}`, a.date), text: a.text && b.text ? `${a.text} ${b.text.split('. ').slice(-2).join('. ')} Invoice ${invoice(i)}.` : a.text };
    }),
  );
}

/**
 * N reviews of one to five sentences drawn (seeded) from the 41,000 labelled sentences in eval/
 * written by 41 people, each review's from sentences written for its star rating: the variety
 * of real text, where benchReviews recombines the 320 demo texts (169 distinct aspect
 * judgements in 20,000 of its reviews), so what memos and shared values save is not flattered.
 */
export function sentenceReviews(n: number): Review[] {
  const dir = fileURLToPath(new URL('../../eval/', import.meta.url));
  const byStars = new Map<number, string[]>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.tsv')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n').slice(1)) {
      const [text, stars] = line.split('\t');
      const rating = Number(stars);
      if (!text || !(rating >= 1 && rating <= 5)) continue;
      const list = byStars.get(rating) ?? [];
      list.push(text);
      byStars.set(rating, list);
    }
  }
  const random = seededRandom(20261128);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const base = demoReviews(320);
  return sortNewestFirst(
    Array.from({ length: n }, (_, i) => {
      const a = base[i % base.length]!;
      const rating = pick([1, 1, 2, 3, 4, 5, 5, 5, 5, 5]);
      const text = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(byStars.get(rating)!)).join(' ');
      return { ...a, id: deterministicUlid(`sentences-${i}`, a.date), rating, text };
    }),
  );
}

/** A number per review, scattered so neighbouring reviews differ. */
export const invoice = (i: number) => (i * 7919) % 1_000_003;

/** Written to stderr as the import's process exits: its peak resident memory (getrusage), in KiB. */
const REPORT_PEAK = `data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>writeSync(2,"\\npeak-rss-kib "+process.resourceUsage().maxRSS+"\\n"))`;

/** Imports a file into a database with the CLI of a built checkout (`root`), as an operator would (`env`: the deployment's, e.g. BASE_URL); returns the import's peak RSS in MiB. */
export function cliImport(root: string, file: string, databaseUrl: string, env: Record<string, string> = {}): number {
  const run = spawnSync(process.execPath, ['--import', REPORT_PEAK, join(root, 'bin/reviewcast.js'), 'import', file], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`import failed (${run.status ?? run.signal}): ${run.stderr.slice(-2000)}`);
  const kib = /^peak-rss-kib (\d+)$/m.exec(run.stderr)?.[1];
  if (kib === undefined) throw new Error(`the import did not report its peak RSS: ${run.stderr.slice(-2000)}`);
  return Number(kib) / 1024;
}

/** An import file of the demo business and N bench reviews (the /reviews.json shape), written in pieces: a million reviews are more text than one string holds. */
export function writeBenchFile(file: string, n: number): void {
  writeFileSync(file, '');
  for (const piece of datasetJson(DEMO_BUSINESS, benchReviews(n))) appendFileSync(file, piece);
}

/**
 * A fresh SQLite database in a temporary folder holding the demo business and N bench reviews,
 * imported with the CLI of this checkout or of `root` (another build, with its own schema), as
 * a deployment loads its data: the import analyses the revision and keeps its insights, so the
 * service starts from them and holds no per-review analyses, as in production.
 */
export async function benchDatabase(n: number, root = fileURLToPath(new URL('../..', import.meta.url))): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bench-'));
  const path = join(dir, 'bench.db');
  const file = join(dir, 'reviews.json');
  writeBenchFile(file, n);
  cliImport(root, file, path);
  rmSync(file);
  return path;
}
