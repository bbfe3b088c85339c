/**
 * The trained aspect model (model.json, made by `npm run train:insights` from the blind-written
 * corpus in eval/): which aspects a sentence judges, how, and a review's overall polarity.
 */
import json from './model.json' with { type: 'json' };
import { CUES, scopeOf, wordOf, type Pairs, type Word } from './features.js';
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
  /** How far past its threshold (in logits) an aspect must be to be found in the clause of an aspect further past its own. */
  secondary: number;
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
  /** Per label, the probability from which it is found (chosen on folds of the guided writers since 2.9.0, across the writers before). */
  thresholds: number[];
  /** The share of its threshold from which an aspect the lexicon also judges in the sentence is found. */
  backed: number;
  /** How far past its threshold (in logits) an aspect must be to be found in the clause of an aspect further past its own (chosen across writers; absent in files before it: 0). */
  secondary?: number;
  labels: string[];
  features: string;
  scale: number;
  weights: string;
}

/** What the model reads of one sentence as feature strings (SentenceView in analyser.ts): training's view, and the reference the summed path is tested against. */
export interface View {
  features: string[];
  clauses: () => { text: string; features: string[] }[];
}

/**
 * A piece of text's features as the model's rows, not summed yet: a sentence's detection
 * weights are summed for every sentence, its polarity weights only for the aspects found.
 */
export class Rows {
  /** Offsets of words' summed rows in the model's word sums. */
  words: Int32Array = new Int32Array(32);
  nWords = 0;
  /** Offsets of single features' rows in the model's weights. */
  features: Int32Array = new Int32Array(32);
  nFeatures = 0;

  clear(): this {
    this.nWords = 0;
    this.nFeatures = 0;
    return this;
  }

  word(at: number): void {
    if (this.nWords === this.words.length) this.words = grow(this.words);
    this.words[this.nWords++] = at;
  }

  /** A feature's row; -1 (no weight) adds nothing. */
  feature(at: number): void {
    if (at < 0) return;
    if (this.nFeatures === this.features.length) this.features = grow(this.features);
    this.features[this.nFeatures++] = at;
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

/** A clause and its rows. */
export interface Clause {
  text: string;
  rows: Rows;
}

/** What the model reads of one sentence. */
export interface Reading {
  rows: Rows;
  /** Bit k: the lexicon judges label k (positive or negative) in the sentence. */
  judged: number;
  /** Its clauses (asked only when an aspect is found): the sentence itself, same rows, when it has one. */
  clauses(): readonly Clause[];
}

export interface ModelHit {
  /** The corpus's aspect id (quality, knowledge, ...). */
  label: string;
  polarity: ModelPolarity;
  /** Signed strength: P(positive) - P(negative) in the clause judged. */
  score: number;
  /** The clause of the sentence the judgement rests on, and its place among the sentence's clauses. */
  clause: string;
  clauseAt: number;
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
  // A tiny negative rounds to -0: JSON writes it as 0, so the document held and the one read back would differ.
  const score = Math.round(((ep - en) / sum) * unit) / unit;
  return { polarity, score: score === 0 ? 0 : score };
}

/**
 * A model's features and weights, shared by every model made from them (withThresholds, and
 * every AspectModel.fromFile() of the shipped file): single features by name, word pairs by
 * their two words (one string per word, not per pair: 70k of the shipped model's 85k features
 * are pairs), and the weights as stored, each worth `Math.fround(weight * scale)`: the file's
 * 16-bit integers (half the bytes of 32-bit floats) or training's floats (scale 1).
 */
interface Index {
  /** Single feature -> row number. */
  rows: Map<string, number>;
  /** Word pairs: every first word and every second word numbered, and each pair's row offset in `weights` by the two numbers. */
  firsts: Map<string, number>;
  seconds: Map<string, number>;
  pairs: PairTable;
  count: number;
  weights: Float32Array | Int16Array;
  scale: number;
}

/** A word pair is "a b"; lexicon patterns ("P:on time") are not pairs. */
function pairAt(f: string): number {
  const space = f.indexOf(' ');
  return space < 1 || f.indexOf(' ', space + 1) >= 0 || f.startsWith('P:') ? -1 : space;
}

/** Room for this many distinct second words: a pair's key, first * 2^15 + second, stays a small integer (< 2^30). */
const PAIR_SECONDS = 2 ** 15;

/**
 * Word pairs' row offsets by their two words' numbers, in one open-addressing hash table of two
 * typed arrays: a look-up is a multiply and a probe or two in contiguous memory, where a Map of
 * 50,000 entries (or a search of per-word tables) cost more per word of every sentence.
 */
class PairTable {
  /** first * PAIR_SECONDS + second, or -1 for a free slot. */
  private readonly keys: Int32Array;
  private readonly offsets: Int32Array;
  private readonly shift: number;
  private readonly mask: number;

  constructor(pairs: readonly (readonly [first: number, second: number, offset: number])[]) {
    // At most half full, so a probe rarely goes past the first slot.
    const bits = Math.max(4, Math.ceil(Math.log2(2 * pairs.length + 1)));
    this.keys = new Int32Array(2 ** bits).fill(-1);
    this.offsets = new Int32Array(2 ** bits);
    this.shift = 32 - bits;
    this.mask = 2 ** bits - 1;
    for (const [first, second, offset] of pairs) {
      const key = first * PAIR_SECONDS + second;
      let slot = this.slot(key);
      while (this.keys[slot] !== -1) slot = (slot + 1) & this.mask;
      this.keys[slot] = key;
      this.offsets[slot] = offset;
    }
  }

  private slot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  /** The pair's row offset, or NONE. */
  get(first: number, second: number): number {
    const key = first * PAIR_SECONDS + second;
    for (let slot = this.slot(key); ; slot = (slot + 1) & this.mask) {
      const k = this.keys[slot]!;
      if (k === key) return this.offsets[slot]!;
      if (k === -1) return NONE;
    }
  }

  /** Every pair: its first and second word's numbers and its row offset. */
  *entries(): Generator<[first: number, second: number, offset: number]> {
    for (let slot = 0; slot < this.keys.length; slot++) {
      const k = this.keys[slot]!;
      if (k !== -1) yield [Math.floor(k / PAIR_SECONDS), k % PAIR_SECONDS, this.offsets[slot]!];
    }
  }
}

function indexOf(features: readonly string[], weights: Float32Array | Int16Array, scale: number, width: number): Index {
  const rows = new Map<string, number>();
  const firsts = new Map<string, number>();
  const seconds = new Map<string, number>();
  const pairs: [number, number, number][] = [];
  const numbered = (words: Map<string, number>, w: string): number => {
    let n = words.get(w);
    if (n === undefined) words.set(w, (n = words.size));
    return n;
  };
  features.forEach((f, i) => {
    const space = pairAt(f);
    if (space < 0) {
      rows.set(f, i);
      return;
    }
    pairs.push([numbered(firsts, f.slice(0, space)), numbered(seconds, f.slice(space + 1)), i * width]);
  });
  if (seconds.size > PAIR_SECONDS || firsts.size > PAIR_SECONDS) throw new Error(`the model has more distinct words in pairs (${firsts.size}, ${seconds.size}) than pair keys have room for (${PAIR_SECONDS})`);
  return { rows, firsts, seconds, pairs: new PairTable(pairs), count: features.length, weights, scale };
}

/** Width of a row: detection (A), review (3), polarity (3 + 3A). */
const widthOf = (labels: number) => labels + 3 + 3 * (labels + 1);

/** A model file's features and weights (16-bit in the file, kept so). */
function decode(m: ModelFile): Index {
  // A plain loop: the callback form of Uint8Array.from took a second at start-up.
  const binary = atob(m.weights);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return indexOf(m.features.split('\n'), new Int16Array(bytes.buffer, 0, bytes.length / 2), m.scale, widthOf(m.labels.length));
}

/** The shipped model.json decoded, once (AspectModel.fromFile()); every model made from it shares it, which no model writes to. */
let shipped: Index | undefined;

/** How model.json was made (its method line), without building the model from it. */
export const MODEL_METHOD = (json as ModelFile).method;

/** The rating as a feature ("stars:4"), made once. */
export const STARS: readonly string[] = [0, 1, 2, 3, 4, 5].map((n) => `stars:${n}`);

/** Detection weights come first in a row. */
const D = 0;

/** A word's features' weights summed once, as it is and inside a negation's scope: kept in at most this many bytes. */
const WORD_SUMS_BYTES = 4 * 2 ** 20;
/** Distinct words kept with their sums. */
const WORD_SUMS_MAX = 50_000;
/** Not worked out yet / no feature of the model. */
const UNSEEN = -2;
const NONE = -1;

/** A word as the model reads it: offsets of its summed rows in `sums` (or UNSEEN / NONE), and its numbers as a pair's first and second word (or NONE). */
interface WordSums {
  word: Word;
  plain: number;
  negated: number;
  first: number;
  second: number;
}

export class AspectModel {
  readonly method: string;
  readonly thresholds: readonly number[];
  readonly backed: number;
  readonly secondary: number;
  /** The thresholds as logits: no exp per aspect and sentence; and the lower ones for aspects the lexicon judges too. */
  private readonly cuts: Float64Array;
  private readonly backedCuts: Float64Array;
  /** Per label, the lexicon's features for judging it ("R:pricing:positive", "R:pricing:negative"). */
  private readonly readings: readonly (readonly [string, string])[];
  readonly labels: readonly string[];
  /** Features -> rows of `weights` (Index); a row is detection (A), review (3), polarity (3 + 3A). Little-endian 16-bit rows in the file. */
  private readonly index: Index;
  private readonly rows: Map<string, number>;
  private readonly weights: Float32Array | Int16Array;
  private readonly scale: number;
  private readonly firsts: Map<string, number>;
  private readonly seconds: Map<string, number>;
  private readonly pairTable: PairTable;
  private pairStrings: Pairs | undefined;
  private readonly width: number;
  private readonly P: number;
  private readonly R: number;
  /** Rows of the features many texts have, looked up once: "bias", the cues (CUES), the shape, the stars (-1: no weight). */
  private readonly bias: number;
  private readonly cueRows: Int32Array;
  private readonly contrastRow: number;
  private readonly questionRow: number;
  private readonly exclaimRow: number;
  private readonly starsRows: Int32Array;
  /**
   * Per distinct word, its features (itself, stem, clusters) summed into one row of `sums` at
   * first sight: a word then costs one lookup and one row however many features it has.
   * Bounded: emptied when full, before a text and never during one.
   */
  private words = new Map<string, WordSums>();
  private sums = new Float64Array(0);
  private used = 0;
  private readonly maxSums: number;
  /** Scratch for one text's words, and the sentence's rows and sums (valid until the next sentence). */
  private entries: WordSums[] = [];
  private plainWords: Word[] = [];
  private negated = new Uint8Array(64);
  private readonly sentenceRows = new Rows();
  private readonly z: Float64Array;
  private readonly margins: Float64Array;

  private constructor(method: string, thresholds: readonly number[], backed: number, secondary: number, labels: readonly string[], index: Index) {
    this.method = method;
    this.thresholds = thresholds;
    this.backed = backed;
    this.secondary = secondary;
    const logit = (t: number) => Math.log(t / (1 - t));
    this.cuts = Float64Array.from(thresholds, logit);
    // An aspect the lexicon judges is found from whichever cut is lower (a share above 1 lowers nothing).
    this.backedCuts = Float64Array.from(thresholds, (t) => {
      const lower = logit(t * backed);
      return lower < logit(t) ? lower : logit(t);
    });
    this.readings = labels.map((l) => [`R:${l}:positive`, `R:${l}:negative`] as const);
    this.labels = labels;
    const A = labels.length;
    this.R = A;
    this.P = A + 3;
    this.width = widthOf(A);
    this.index = index;
    this.rows = index.rows;
    this.firsts = index.firsts;
    this.seconds = index.seconds;
    this.pairTable = index.pairs;
    this.weights = index.weights;
    this.scale = index.scale;
    this.bias = this.row('bias');
    this.cueRows = Int32Array.from(CUES, ([, f]) => this.row(f));
    this.contrastRow = this.row('~contrast');
    this.questionRow = this.row('~question');
    this.exclaimRow = this.row('~exclaim');
    this.starsRows = Int32Array.from(STARS, (f) => this.row(f));
    this.maxSums = Math.floor(WORD_SUMS_BYTES / 8 / this.width);
    this.z = new Float64Array(this.P);
    this.margins = new Float64Array(A);
  }

  /** The same weights with other thresholds (cross-validation chooses them). */
  withThresholds(thresholds: readonly number[], backed = this.backed, secondary = this.secondary): AspectModel {
    return new AspectModel(this.method, thresholds, backed, secondary, this.labels, this.index);
  }

  /** From the trained parts (training, before the file is written). */
  static fromParts(m: ModelParts): AspectModel {
    const features: string[] = [];
    const index = new Map<string, number>();
    for (const part of [m.detect, m.polarity, m.review]) for (const f of Object.keys(part.weights)) if (!index.has(f)) index.set(f, features.push(f) - 1);
    const A = m.detect.labels.length;
    const width = widthOf(A);
    const weights = new Float32Array(features.length * width);
    for (const [part, at] of [[m.detect, 0], [m.review, A], [m.polarity, A + 3]] as const) {
      for (const [f, w] of Object.entries(part.weights)) weights.set(w, index.get(f)! * width + at);
    }
    return new AspectModel(m.method, m.thresholds, m.backed, m.secondary, m.detect.labels, indexOf(features, weights, 1, width));
  }

  /** From model.json (the shipped one when `m` is not given). */
  static fromFile(m?: ModelFile): AspectModel {
    if (m !== undefined) return new AspectModel(m.method, m.thresholds, m.backed, m.secondary ?? 0, m.labels, decode(m));
    const file = json as ModelFile;
    if (shipped === undefined) {
      shipped = decode(file);
      // The module holds the parsed file for the life of the process; its base64 weights (about 9 MiB
      // of heap in the built service) and its feature list are read only here, so they are let go once
      // decoded (the list's 0.9 MiB text stays while names of 13+ characters are V8 slices of it).
      const held = json as Partial<ModelFile>;
      delete held.weights;
      delete held.features;
    }
    return new AspectModel(file.method, file.thresholds, file.backed, file.secondary ?? 0, file.labels, shipped);
  }

  /** The file form of this model: 16-bit weights scaled to the largest. */
  toFile(trainedOn: ModelFile['trained_on']): ModelFile {
    const features: string[] = new Array<string>(this.index.count);
    for (const [f, i] of this.rows) features[i] = f;
    for (const [first, second, at] of this.pairList()) features[at / this.width] = `${first} ${second}`;
    const weights = Float32Array.from(this.weights, (w) => Math.fround(w * this.scale));
    const max = weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0) || 1;
    const scale = max / 32767;
    const ints = Int16Array.from(weights, (w) => Math.round(w / scale));
    let binary = '';
    const bytes = new Uint8Array(ints.buffer);
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
    return { method: this.method, trained_on: trainedOn, thresholds: [...this.thresholds], backed: this.backed, secondary: this.secondary, labels: [...this.labels], features: features.join('\n'), scale, weights: btoa(binary) };
  }

  /** The word pairs the model has weights for, as feature strings (featuresOf builds only these on the reference path); made when first asked. */
  get pairs(): Pairs {
    if (this.pairStrings === undefined) {
      const pairs = new Map<string, Map<string, string>>();
      for (const [first, second] of this.pairList()) {
        let seconds = pairs.get(first);
        if (!seconds) pairs.set(first, (seconds = new Map()));
        seconds.set(second, `${first} ${second}`);
      }
      this.pairStrings = pairs;
    }
    return this.pairStrings;
  }

  /** Every word pair the model has a weight for: its two words and its row's offset. */
  private pairList(): [string, string, number][] {
    const firstWords: string[] = [];
    const secondWords: string[] = [];
    for (const [w, n] of this.firsts) firstWords[n] = w;
    for (const [w, n] of this.seconds) secondWords[n] = w;
    const out: [string, string, number][] = [];
    for (const [first, second, at] of this.pairTable.entries()) out.push([firstWords[first]!, secondWords[second]!, at]);
    return out;
  }

  /** For a word's own features, which never hold a space (so are never pairs, which `rows` leaves out). */
  private readonly known = (feature: string): boolean => this.rows.has(feature);

  /** A feature's row (its offset in the weights), or -1 when the model has no weight for it. */
  row(feature: string): number {
    const row = this.rows.get(feature);
    if (row !== undefined) return row * this.width;
    const space = pairAt(feature);
    if (space < 0) return NONE;
    const first = this.firsts.get(feature.slice(0, space));
    const second = this.seconds.get(feature.slice(space + 1));
    return first === undefined || second === undefined ? NONE : this.pairTable.get(first, second);
  }

  /** The sentence's rows, emptied: valid until the next call. */
  begin(): Rows {
    return this.sentenceRows.clear();
  }

  /** Adds to `rows` those of featuresOf(text, words, breaks, contrast, this.pairs), without making a feature string. */
  addText(rows: Rows, text: string, words: readonly string[], breaks: Uint8Array, contrast: boolean): void {
    const n = words.length;
    // Emptied before a text, so the sums its words get stay theirs until it is read.
    if (this.words.size + n > WORD_SUMS_MAX || this.used + n > this.maxSums) {
      this.words.clear();
      this.used = 0;
    }
    if (this.negated.length < n) this.negated = new Uint8Array(2 * n);
    const entries = this.entries;
    const plain = this.plainWords;
    for (let i = 0; i < n; i++) {
      const w = words[i]!;
      let e = this.words.get(w);
      if (e === undefined) {
        const word = wordOf(w);
        const first = this.firsts.get(w) ?? NONE;
        const second = this.seconds.get(w) ?? NONE;
        // Kept only when the model reads something in it: the words it never had (numbers, names) pass through.
        if (first !== NONE || second !== NONE || word.plain.some(this.known) || word.negated.some(this.known)) this.words.set(w, (e = { word, plain: UNSEEN, negated: UNSEEN, first, second }));
        else e = { word, plain: NONE, negated: NONE, first, second };
      }
      entries[i] = e;
      plain[i] = e.word;
    }
    const cues = scopeOf(plain, n, this.negated, breaks);
    rows.feature(this.bias);
    for (let i = 0; i < n; i++) {
      const e = entries[i]!;
      let at: number;
      if (this.negated[i]) {
        if (e.negated === UNSEEN) e.negated = this.sum(e.word.negated);
        at = e.negated;
      } else {
        if (e.plain === UNSEEN) e.plain = this.sum(e.word.plain);
        at = e.plain;
      }
      if (at >= 0) rows.word(at);
      if (e.first !== NONE && i + 1 < n) {
        const second = entries[i + 1]!.second;
        if (second !== NONE) rows.feature(this.pairTable.get(e.first, second));
      }
    }
    for (let c = 0; c < CUES.length; c++) if (cues & CUES[c]![0]) rows.feature(this.cueRows[c]!);
    if (contrast) rows.feature(this.contrastRow);
    if (text.includes('?')) rows.feature(this.questionRow);
    if (text.includes('!')) rows.feature(this.exclaimRow);
  }

  /** One word's features summed into a new row of `sums`: its offset, or NONE when the model has none of them. */
  private sum(features: readonly string[]): number {
    if (!features.some((f) => this.rows.has(f))) return NONE;
    const width = this.width;
    if ((this.used + 1) * width > this.sums.length) {
      const grown = new Float64Array(Math.min(this.maxSums, Math.max(256, 2 * (this.used + 1))) * width);
      grown.set(this.sums.subarray(0, this.used * width));
      this.sums = grown;
    }
    const at = this.used++ * width;
    this.sums.fill(0, at, at + width);
    const W = this.weights;
    const sc = this.scale;
    for (const f of features) {
      const row = this.row(f);
      if (row < 0) continue;
      for (let j = 0; j < width; j++) this.sums[at + j]! += Math.fround(W[row + j]! * sc);
    }
    return at;
  }

  /** Columns [from, from + n) of the rows summed into z (cleared first). */
  private total(z: Float64Array, rows: Rows, from: number, n: number): Float64Array {
    z.fill(0);
    const S = this.sums;
    const W = this.weights;
    const sc = this.scale;
    for (let r = 0; r < rows.nWords; r++) {
      const at = rows.words[r]! + from;
      for (let j = 0; j < n; j++) z[j]! += S[at + j]!;
    }
    for (let r = 0; r < rows.nFeatures; r++) {
      const at = rows.features[r]! + from;
      for (let j = 0; j < n; j++) z[j]! += Math.fround(W[at + j]! * sc);
    }
    return z;
  }

  private rowsOf(features: readonly string[]): Rows {
    const rows = new Rows();
    for (const f of features) rows.feature(this.row(f));
    return rows;
  }

  /** A view's feature strings as rows (the reference path, and training's). */
  read(view: View): Reading {
    const rows = this.rowsOf(view.features);
    let judged = 0;
    this.readings.forEach(([pos, neg], k) => {
      if (view.features.includes(pos) || view.features.includes(neg)) judged |= 1 << k;
    });
    return { rows, judged, clauses: () => view.clauses().map((c) => ({ text: c.text, rows: c.features === view.features ? rows : this.rowsOf(c.features) })) };
  }

  /** Polarity of aspect `k` in a clause: its features' shared polarity weights plus the aspect's own, and the stars'. */
  private polarityAt(rows: Rows, k: number, stars: number): { polarity: ModelPolarity; score: number } {
    const P = this.P;
    const own = P + 3 * (k + 1);
    const S = this.sums;
    const W = this.weights;
    const sc = this.scale;
    let pos = 0, neg = 0, neu = 0;
    for (let r = 0; r < rows.nWords; r++) {
      const at = rows.words[r]!;
      pos += S[at + P]! + S[at + own]!;
      neg += S[at + P + 1]! + S[at + own + 1]!;
      neu += S[at + P + 2]! + S[at + own + 2]!;
    }
    for (let r = 0; r <= rows.nFeatures; r++) {
      const at = r < rows.nFeatures ? rows.features[r]! : stars;
      if (at < 0) continue;
      pos += Math.fround(W[at + P]! * sc) + Math.fround(W[at + own]! * sc);
      neg += Math.fround(W[at + P + 1]! * sc) + Math.fround(W[at + own + 1]! * sc);
      neu += Math.fround(W[at + P + 2]! * sc) + Math.fround(W[at + own + 2]! * sc);
    }
    return verdict3(pos, neg, neu, 6);
  }

  /** The clause that speaks most of aspect `k`: its polarity is read there. */
  private clauseFor<C extends { z: Float64Array }>(clauses: readonly C[], k: number): C {
    let best = clauses[0]!;
    for (const c of clauses) if (c.z[D + k]! > best.z[D + k]!) best = c;
    return best;
  }

  /** The clause training reads an aspect's polarity on (the same choice as inference). */
  clauseText(view: View, k: number): { text: string; features: string[] } {
    const scored = view.clauses().map((c) => ({ c, z: this.total(new Float64Array(this.R), this.rowsOf(c.features), 0, this.R) }));
    return this.clauseFor(scored, k).c;
  }

  /**
   * The aspects one sentence judges; `stars`, the review's rating, weighs in the polarity. The
   * sentence's review logits are added to `review` (reviewStart) when given.
   */
  sentence(reading: Reading, stars?: number, review?: Float64Array): ModelHit[] {
    const starsRow = stars === undefined ? NONE : (this.starsRows[stars] ?? NONE);
    // Detection and review weights for the sentence; polarity weights only for the aspects found, on their clause.
    const z = this.total(this.z, reading.rows, 0, this.P);
    const hits: ModelHit[] = [];
    // Each aspect's margin over its threshold: the lower one where the lexicon judges it in the sentence (the model leans to it).
    // `top`: the aspect furthest past its threshold.
    const margins = this.margins;
    let top = -1;
    for (let k = 0; k < this.labels.length; k++) {
      margins[k] = z[D + k]! - (reading.judged & (1 << k) ? this.backedCuts[k]! : this.cuts[k]!);
      if (margins[k]! >= 0 && (top < 0 || margins[k]! > margins[top]!)) top = k;
    }
    let clauses: { text: string; rows: Rows; z: Float64Array }[] | null = null;
    let topClause: { text: string; rows: Rows; z: Float64Array } | null = null;
    for (let k = 0; top >= 0 && k < this.labels.length; k++) {
      if (margins[k]! < 0) continue;
      clauses ??= reading.clauses().map((c) => ({ text: c.text, rows: c.rows, z: c.rows === reading.rows ? z : this.total(new Float64Array(this.R), c.rows, 0, this.R) }));
      const clause = this.clauseFor(clauses, k);
      // In the top aspect's clause another aspect needs a wider margin: a clause mostly judges one thing, and the
      // runner-up is often read from words several aspects share ("friendly and quick"); past a contrast word it stands on its own.
      if (k !== top && margins[k]! < this.secondary && clause === (topClause ??= this.clauseFor(clauses, top))) continue;
      const { polarity, score } = this.polarityAt(clause.rows, k, starsRow);
      hits.push({ label: this.labels[k]!, polarity, score, clause: clause.text, clauseAt: clauses.indexOf(clause) });
    }
    if (review) for (let i = 0; i < 3; i++) review[i]! += z[this.R + i]!;
    return hits;
  }

  /** A review's overall logits before its sentences: its stars' weights. */
  reviewStart(stars: number): Float64Array {
    const z = new Float64Array(3);
    const row = this.starsRows[stars] ?? this.row(`stars:${stars}`);
    if (row >= 0) for (let i = 0; i < 3; i++) z[i] = Math.fround(this.weights[row + this.R + i]! * this.scale);
    return z;
  }

  /** A review's overall polarity from its stars' and sentences' summed review logits: positive, negative, or neutral (mixed or neither). */
  reviewPolarity(z: Float64Array): { polarity: ModelPolarity; score: number } {
    return verdict3(z[0]!, z[1]!, z[2]!);
  }
}
