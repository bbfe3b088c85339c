/**
 * The trained aspect model (model.json, made by `npm run train:insights` from the blind-written
 * corpus in eval/): which aspects a sentence judges, how, and a review's overall polarity.
 */
import json from './model.json' with { type: 'json' };
import type { Pairs } from './features.js';
import type { LinearJson } from './linear.js';

export type ModelPolarity = 'positive' | 'negative' | 'neutral';

/** The three trained parts, as training makes them. */
export interface ModelParts {
  method: string;
  trained_on: { files: string[]; rows: number };
  /** Per aspect label, the probability from which it is found. */
  thresholds: number[];
  /** The share of its threshold from which an aspect the lexicon also reads in the sentence is found. */
  backed: number;
  /** One logistic output per aspect label. */
  detect: LinearJson;
  /**
   * Softmax over polarities, packed: per feature the shared weights for each polarity, then
   * for each aspect label its own weights for each polarity (labels: "label|polarity").
   */
  polarity: LinearJson;
  /** Softmax over polarities for a whole review: its sentences' features and its stars. */
  review: LinearJson;
}

/**
 * model.json: the parts side by side, one row per feature (detection, polarity, review weights),
 * as 16-bit integers times `scale`, base64; features newline-separated. A few strings rather
 * than tens of thousands of arrays: the parsed file stays in memory as long as the module does.
 */
export interface ModelFile {
  method: string;
  trained_on: { files: string[]; rows: number };
  /** Per label, the probability from which it is found (chosen by cross-validation across writers). */
  thresholds: number[];
  /** The share of its threshold from which an aspect the lexicon also judges in the sentence is found. */
  backed: number;
  labels: string[];
  features: string;
  scale: number;
  weights: string;
}

/** What the model reads of one sentence (SentenceView in analyser.ts). */
export interface View {
  features: string[];
  clauses: () => { text: string; features: string[] }[];
}

export interface ModelHit {
  /** The corpus's aspect id (quality, knowledge, ...). */
  label: string;
  polarity: ModelPolarity;
  /** Signed strength: P(positive) - P(negative) in the clause judged. */
  score: number;
  /** The clause of the sentence the judgement rests on. */
  clause: string;
}

export const POLARITIES: readonly ModelPolarity[] = ['positive', 'negative', 'neutral'];

/**
 * The most likely polarity of three logits (positive, negative, neutral), and P(positive) -
 * P(negative) to `places` decimals: an aspect's strength keeps six, as a confident model puts
 * "very reasonable" and "reasonable" both above 0.9999 and intensity is in the rest.
 */
function verdict3(pos: number, neg: number, neu: number, places = 3): { polarity: ModelPolarity; score: number } {
  const m = Math.max(pos, neg, neu);
  const ep = Math.exp(pos - m);
  const en = Math.exp(neg - m);
  const sum = ep + en + Math.exp(neu - m);
  const polarity = pos >= neg && pos >= neu ? 'positive' : neg >= neu ? 'negative' : 'neutral';
  const unit = 10 ** places;
  return { polarity, score: Math.round(((ep - en) / sum) * unit) / unit };
}

/** The rating as a feature ("stars:4"), made once. */
export const STARS: readonly string[] = [0, 1, 2, 3, 4, 5].map((n) => `stars:${n}`);

/** Weights of the three parts side by side, so one lookup per feature serves them all. */
const D = 0;

export class AspectModel {
  readonly method: string;
  readonly thresholds: readonly number[];
  readonly backed: number;
  /** The thresholds as logits: no exp per aspect and sentence; and the lower ones for aspects the lexicon judges too. */
  private readonly cuts: Float64Array;
  private readonly backedCuts: Float64Array;
  /** Per label, the lexicon's features for judging it ("R:pricing:positive", "R:pricing:negative"). */
  private readonly readings: readonly (readonly [string, string])[];
  readonly labels: readonly string[];
  /** feature -> row in `weights`; a row is detection (A), review (3), polarity (3 + 3A). Little-endian 16-bit rows in the file. */
  private readonly rows = new Map<string, number>();
  private readonly weights: Float32Array;
  /** The word pairs the model has weights for (features.ts builds only these at inference). */
  readonly pairs: Pairs;
  private readonly width: number;
  private readonly P: number;
  private readonly R: number;

  private constructor(method: string, thresholds: readonly number[], backed: number, labels: readonly string[], features: readonly string[], weights: Float32Array) {
    this.method = method;
    this.thresholds = thresholds;
    this.backed = backed;
    const logit = (t: number) => Math.log(t / (1 - t));
    this.cuts = Float64Array.from(thresholds, logit);
    this.backedCuts = Float64Array.from(thresholds, (t) => logit(t * backed));
    this.readings = labels.map((l) => [`R:${l}:positive`, `R:${l}:negative`] as const);
    this.labels = labels;
    const A = labels.length;
    this.R = A;
    this.P = A + 3;
    this.width = this.P + 3 * (A + 1);
    features.forEach((f, i) => this.rows.set(f, i));
    this.weights = weights;
    const pairs = new Map<string, Map<string, string>>();
    for (const f of features) {
      const space = f.indexOf(' ');
      // Word pairs are "a b"; lexicon patterns ("P:on time") are not pairs.
      if (space < 1 || f.indexOf(' ', space + 1) >= 0 || f.startsWith('P:')) continue;
      const first = f.slice(0, space);
      let seconds = pairs.get(first);
      if (!seconds) pairs.set(first, (seconds = new Map()));
      seconds.set(f.slice(space + 1), f);
    }
    this.pairs = pairs;
  }

  /** The same weights with other thresholds (cross-validation chooses them). */
  withThresholds(thresholds: readonly number[], backed = this.backed): AspectModel {
    return new AspectModel(this.method, thresholds, backed, this.labels, [...this.rows.keys()], this.weights);
  }

  /** From the trained parts (training, before the file is written). */
  static fromParts(m: ModelParts): AspectModel {
    const features: string[] = [];
    const index = new Map<string, number>();
    for (const part of [m.detect, m.polarity, m.review]) for (const f of Object.keys(part.weights)) if (!index.has(f)) index.set(f, features.push(f) - 1);
    const A = m.detect.labels.length;
    const width = A + 3 + 3 * (A + 1);
    const weights = new Float32Array(features.length * width);
    for (const [part, at] of [[m.detect, 0], [m.review, A], [m.polarity, A + 3]] as const) {
      for (const [f, w] of Object.entries(part.weights)) weights.set(w, index.get(f)! * width + at);
    }
    return new AspectModel(m.method, m.thresholds, m.backed, m.detect.labels, features, weights);
  }

  /** From model.json. */
  static fromFile(m: ModelFile = json as ModelFile): AspectModel {
    // Plain loops: the callback forms of Uint8Array.from and Float32Array.from took a second at start-up.
    const binary = atob(m.weights);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const ints = new Int16Array(bytes.buffer, 0, bytes.length / 2);
    const weights = new Float32Array(ints.length);
    for (let i = 0; i < ints.length; i++) weights[i] = ints[i]! * m.scale;
    return new AspectModel(m.method, m.thresholds, m.backed, m.labels, m.features.split('\n'), weights);
  }

  /** The file form of this model: 16-bit weights scaled to the largest. */
  toFile(trainedOn: ModelFile['trained_on']): ModelFile {
    const features = [...this.rows.keys()];
    const max = this.weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0) || 1;
    const scale = max / 32767;
    const ints = Int16Array.from(this.weights, (w) => Math.round(w / scale));
    let binary = '';
    const bytes = new Uint8Array(ints.buffer);
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
    return { method: this.method, trained_on: trainedOn, thresholds: [...this.thresholds], backed: this.backed, labels: [...this.labels], features: features.join('\n'), scale, weights: btoa(binary) };
  }

  /** Summed weight rows of the features, their first `n` weights: detection logits, then review logits. */
  private sum(features: readonly string[], n: number): Float64Array {
    const z = new Float64Array(n);
    const W = this.weights;
    const rows = this.rows;
    const width = this.width;
    for (let f = 0; f < features.length; f++) {
      const row = rows.get(features[f]!);
      if (row === undefined) continue;
      const at = row * width;
      for (let i = 0; i < n; i++) z[i]! += W[at + i]!;
    }
    return z;
  }

  /** Polarity of aspect `k` in a clause: its features' shared polarity weights plus the aspect's own. */
  private polarityAt(features: readonly string[], k: number, stars: string | null): { polarity: ModelPolarity; score: number } {
    const W = this.weights;
    const own = this.P + 3 * (k + 1);
    let pos = 0, neg = 0, neu = 0;
    for (let f = 0; f <= features.length; f++) {
      const row = this.rows.get(f < features.length ? features[f]! : stars!);
      if (row === undefined) continue;
      const at = row * this.width;
      pos += W[at + this.P]! + W[at + own]!;
      neg += W[at + this.P + 1]! + W[at + own + 1]!;
      neu += W[at + this.P + 2]! + W[at + own + 2]!;
    }
    return verdict3(pos, neg, neu, 6);
  }

  private lexiconJudges(features: readonly string[], k: number): boolean {
    const [pos, neg] = this.readings[k]!;
    return features.includes(pos) || features.includes(neg);
  }

  /** The clause that speaks most of aspect `k`: its polarity is read there. */
  private clauseFor<C extends { z: Float64Array }>(clauses: readonly C[], k: number): C {
    let best = clauses[0]!;
    for (const c of clauses) if (c.z[D + k]! > best.z[D + k]!) best = c;
    return best;
  }

  /** The clause training reads an aspect's polarity on (the same choice as inference). */
  clauseText(view: View, k: number): { text: string; features: string[] } {
    const clauses = view.clauses();
    const scored = clauses.map((c) => ({ c, z: this.sum(c.features, this.P) }));
    return this.clauseFor(scored, k).c;
  }

  /** The aspects one sentence judges, and its share of the review's overall logits; `stars`, the review's rating, weighs in the polarity. */
  sentence(view: View, stars?: number): { hits: ModelHit[]; review: Float64Array } {
    const starsFeature = stars === undefined ? null : STARS[stars] ?? null;
    // Detection and review weights for the sentence; polarity weights only for the aspects found, on their clause.
    const z = this.sum(view.features, this.P);
    const hits: ModelHit[] = [];
    let clauses: { text: string; features: string[]; z: Float64Array }[] | null = null;
    for (let k = 0; k < this.labels.length; k++) {
      // Below its threshold, an aspect is still found when the lexicon judges it in the sentence and the model leans to it.
      if (z[D + k]! < this.cuts[k]! && (z[D + k]! < this.backedCuts[k]! || !this.lexiconJudges(view.features, k))) continue;
      clauses ??= view.clauses().map((c) => ({ text: c.text, features: c.features, z: c.features === view.features ? z : this.sum(c.features, this.R) }));
      const clause = this.clauseFor(clauses, k);
      hits.push({ label: this.labels[k]!, ...this.polarityAt(clause.features, k, starsFeature), clause: clause.text });
    }
    return { hits, review: z.subarray(this.R, this.R + 3) };
  }

  /** A review's overall polarity from its sentences' summed review logits and its stars: positive, negative, or neutral (mixed or neither). */
  reviewPolarity(sentences: readonly Float64Array[], stars: number): { polarity: ModelPolarity; score: number } {
    const z = [...this.sum([STARS[stars] ?? `stars:${stars}`], this.P).subarray(this.R, this.R + 3)];
    for (const s of sentences) for (let i = 0; i < 3; i++) z[i]! += s[i]!;
    return verdict3(z[0]!, z[1]!, z[2]!);
  }
}
