/** Training of sparse linear models over string features: logistic (one output per label) and softmax. */
import { seededRandom } from '../seeded-random.js';

export interface LinearJson {
  labels: string[];
  /** feature -> one weight per label, rounded to keep the file small. */
  weights: Record<string, number[]>;
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

export function softmax(xs: readonly number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

export interface Example {
  features: string[];
  /** Logistic: 0/1 per label. Softmax: the index of the right label. */
  target: number[] | number;
  /** Learnt this many times an epoch (default 1); counted once towards `minCount` all the same. */
  repeat?: number;
}

export interface TrainOptions {
  kind: 'logistic' | 'softmax';
  epochs: number;
  rate: number;
  l2: number;
  seed: number;
  /** Features seen in fewer examples are dropped (an example repeated counts once: a word seen in one sentence is not evidence twice over). */
  minCount: number;
  /** Weights smaller than this are stored as 0. */
  prune: number;
  /** Keep the mean of the weights at the end of each epoch of the second half (steadier than the last ones). */
  average: boolean;
}

/** AdaGrad over shuffled examples with L2: deterministic for a given seed and example order. */
export function train(labels: readonly string[], examples: readonly Example[], o: TrainOptions): LinearJson {
  const K = labels.length;
  const bad = examples.find((e) => e.repeat !== undefined && !(Number.isInteger(e.repeat) && e.repeat >= 1));
  // 0 or 2.5 would silently drop or round an example the caller meant to weigh.
  if (bad) throw new Error(`an example's repeat must be a whole number from 1, not ${bad.repeat}`);
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of new Set(e.features)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const w = new Map<string, Float64Array>();
  const g2 = new Map<string, Float64Array>();
  for (const [f, c] of counts) {
    if (c >= o.minCount || f === 'bias') {
      w.set(f, new Float64Array(K));
      g2.set(f, new Float64Array(K).fill(1e-8));
    }
  }
  const rand = seededRandom(o.seed);
  const order = examples.flatMap((e, i) => Array.from({ length: e.repeat ?? 1 }, () => i));
  const mean = new Map<string, Float64Array>();
  let averaged = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const idx of order) {
      const fs = examples[idx]!.features.filter((f) => w.has(f));
      const z = new Array<number>(K).fill(0);
      for (const f of fs) {
        const wf = w.get(f)!;
        for (let k = 0; k < K; k++) z[k]! += wf[k]!;
      }
      const target = examples[idx]!.target;
      const p = o.kind === 'logistic' ? z.map(sigmoid) : softmax(z);
      const grad = p.map((pk, k) => pk - (Array.isArray(target) ? target[k]! : target === k ? 1 : 0));
      for (const f of fs) {
        const wf = w.get(f)!;
        const gf = g2.get(f)!;
        for (let k = 0; k < K; k++) {
          const g = grad[k]! + (f === 'bias' ? 0 : o.l2 * wf[k]!);
          gf[k]! += g * g;
          wf[k]! -= (o.rate * g) / Math.sqrt(gf[k]!);
        }
      }
    }
    if (o.average && epoch >= Math.floor(o.epochs / 2)) {
      averaged++;
      for (const [f, wf] of w) {
        let m = mean.get(f);
        if (!m) mean.set(f, (m = new Float64Array(K)));
        for (let k = 0; k < K; k++) m[k]! += wf[k]!;
      }
    }
  }
  if (averaged > 0) for (const [f, m] of mean) w.set(f, m.map((x) => x / averaged));
  const weights: Record<string, number[]> = {};
  for (const [f, wf] of [...w].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    // Weights too small to move a decision are left out: they would only make the file bigger.
    const r = [...wf].map((x) => (Math.abs(x) < o.prune ? 0 : Math.round(x * 100) / 100));
    if (r.some((x) => x !== 0)) weights[f] = r;
  }
  return { labels: [...labels], weights };
}
