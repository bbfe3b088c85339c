/** The features the aspect model reads from a piece of text: the same code at training and at inference. */
import { lexicon as vader } from 'vader-sentiment/src/vader_lexicon.js';
import stem from 'wink-porter2-stemmer';
import clusters from './clusters.json' with { type: 'json' };
import { NEGATORS } from './lexicon.js';

/** VADER's general English valence lexicon (vader-sentiment package): word -> valence, -4..4. Words only, no emoticons. */
export const VALENCE = new Map(Object.entries(vader).filter(([w]) => /^[a-z][a-z'-]*$/.test(w)));

/**
 * Word clusters (clusters.json, made by scripts/build-word-clusters.ts from word vectors): per
 * word its fine and coarse cluster as features ("c:284", "C:9"), so a word the training corpus
 * never had reads like the words it was clustered with.
 */
const CLUSTERS = new Map<string, readonly [string, string]>();
clusters.fine.forEach((list, i) => {
  const ids = [`c:${i}`, `C:${clusters.coarse[i]}`] as const;
  for (const w of list.split(' ')) CLUSTERS.set(w, ids);
});

/** What the features need of a word, worked out once per distinct word. */
export interface Word {
  /** Its features as it is: itself, its stem ("~charg", when not the word), its clusters. */
  plain: readonly string[];
  /** The same inside a negation's scope ("!charged", "!~charg", "!c:284", ...). */
  negated: readonly string[];
  valence: number;
  negator: boolean;
  scopeEnd: boolean;
  irrealis: boolean;
}

/** Words after a negator that it governs: to the clause's next connective, at most this many. */
const SCOPE = 4;
const SCOPE_END = new Set(['but', 'and', 'so', 'because', 'although', 'though', 'however', 'yet', 'which', 'while']);
/** Words that make a clause about what might or should be, not what was. */
const IRREALIS = new Set(['if', 'would', 'could', 'should', 'wish', 'hope', 'hoping', 'unless', 'whether']);

/**
 * Per distinct word; cleared when full so it stays bounded whatever the reviews say. Words of
 * digits alone (invoice and order numbers, amounts) are made afresh each time, not kept: nearly
 * every one is new, and kept they filled the map (10 MiB of heap at 100,000 reviews).
 */
const WORDS = new Map<string, Word>();
const WORDS_MAX = 50_000;
const DIGITS = /^\d+$/;

export function wordOf(w: string): Word {
  let x = WORDS.get(w);
  if (x === undefined) {
    if (WORDS.size >= WORDS_MAX) WORDS.clear();
    const s = stem(w);
    const v = VALENCE.get(w) ?? 0;
    const c = CLUSTERS.get(w) ?? [];
    x = {
      plain: s === w ? [w, ...c] : [w, `~${s}`, ...c],
      negated: s === w ? [`!${w}`, ...c.map((f) => `!${f}`)] : [`!${w}`, `!~${s}`, ...c.map((f) => `!${f}`)],
      valence: Math.abs(v) >= 0.5 ? v : 0,
      negator: NEGATORS.has(w) || w.endsWith("n't"),
      scopeEnd: SCOPE_END.has(w),
      irrealis: IRREALIS.has(w),
    };
    if (!DIGITS.test(w)) WORDS.set(w, x);
  }
  return x;
}

/** What a text's words say as a whole, as bits: valence classes, the lean, a conditional. */
export const CUES: readonly (readonly [bit: number, feature: string])[] = [
  [1, 'v+2'],
  [2, 'v+1'],
  [4, 'v-2'],
  [8, 'v-1'],
  [16, 'v>'],
  [32, 'v<'],
  [64, '~irrealis'],
];

/**
 * Which of the first `n` words are inside a negation's scope (1 in `negated`), and the cue bits
 * (CUES) of them together: VADER valence summed, flipped inside a scope. A scope also ends at a
 * mark before a word (`breaks`, tokenizeMarked: "No, it was fine"). The one walk both the
 * feature strings and the model's summed weights are made from.
 */
export function scopeOf(words: readonly Word[], n: number, negated: Uint8Array, breaks: Uint8Array): number {
  let pos = 0;
  let neg = 0;
  let left = 0;
  let irrealis = false;
  for (let i = 0; i < n; i++) {
    const x = words[i]!;
    let inScope = false;
    if (breaks[i]) left = 0;
    if (x.negator) left = SCOPE;
    else {
      if (x.scopeEnd) left = 0;
      if (left > 0) {
        inScope = true;
        left--;
      }
    }
    negated[i] = inScope ? 1 : 0;
    if (x.valence !== 0) {
      if (x.valence > 0 !== inScope) pos += Math.abs(x.valence);
      else neg += Math.abs(x.valence);
    }
    if (x.irrealis) irrealis = true;
  }
  let cues = 0;
  if (pos > 0) cues |= pos >= 2 ? 1 : 2;
  if (neg > 0) cues |= neg >= 2 ? 4 : 8;
  if (pos > neg) cues |= 16;
  else if (neg > pos) cues |= 32;
  if (irrealis) cues |= 64;
  return cues;
}

/**
 * The word pairs a model knows, by first and second word, as the model's own strings: at
 * inference a pair it has no weight for is never built, and one it has is not built anew.
 */
export type Pairs = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * Sparse binary features of a text's words (with `pairs`, only the word pairs in it): words and their Porter stems (marked "!" inside a
 * negation's scope, which `breaks` end), their word clusters (marked the same), word pairs, VADER valence classes (flipped by negation), and shape cues (a
 * question, a conditional, an exclamation, a contrast). The model sums the same features' weights without making them (AspectModel.addText).
 */
export function featuresOf(text: string, words: readonly string[], breaks: Uint8Array, contrast = false, pairs: Pairs | null = null): string[] {
  const xs = words.map(wordOf);
  const negated = new Uint8Array(words.length);
  const cues = scopeOf(xs, xs.length, negated, breaks);
  const out: string[] = ['bias'];
  for (let i = 0; i < words.length; i++) {
    for (const f of negated[i] ? xs[i]!.negated : xs[i]!.plain) out.push(f);
    if (i + 1 < words.length) {
      if (pairs === null) out.push(`${words[i]} ${words[i + 1]}`);
      else {
        const pair = pairs.get(words[i]!)?.get(words[i + 1]!);
        if (pair !== undefined) out.push(pair);
      }
    }
  }
  for (const [bit, f] of CUES) if (cues & bit) out.push(f);
  if (contrast) out.push('~contrast');
  if (text.includes('?')) out.push('~question');
  if (text.includes('!')) out.push('~exclaim');
  return out;
}
