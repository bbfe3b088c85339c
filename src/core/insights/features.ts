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
interface Word {
  /** Its stem feature ("~charg"), or null when the stem is the word. */
  stem: string | null;
  negStem: string | null;
  neg: string;
  /** Its clusters' features, plain and inside a negation's scope; empty when it has none. */
  clusters: readonly string[];
  negClusters: readonly string[];
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

/** Per distinct word; cleared when full so it stays bounded whatever the reviews say. */
const WORDS = new Map<string, Word>();
const WORDS_MAX = 50_000;

function wordOf(w: string): Word {
  let x = WORDS.get(w);
  if (x === undefined) {
    if (WORDS.size >= WORDS_MAX) WORDS.clear();
    const s = stem(w);
    const v = VALENCE.get(w) ?? 0;
    const c = CLUSTERS.get(w) ?? [];
    x = {
      clusters: c,
      negClusters: c.map((f) => `!${f}`),
      stem: s === w ? null : `~${s}`,
      negStem: s === w ? null : `!~${s}`,
      neg: `!${w}`,
      valence: Math.abs(v) >= 0.5 ? v : 0,
      negator: NEGATORS.has(w) || w.endsWith("n't"),
      scopeEnd: SCOPE_END.has(w),
      irrealis: IRREALIS.has(w),
    };
    WORDS.set(w, x);
  }
  return x;
}

/**
 * The word pairs a model knows, by first and second word, as the model's own strings: at
 * inference a pair it has no weight for is never built, and one it has is not built anew.
 */
export type Pairs = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * Sparse binary features of a text's words (with `pairs`, only the word pairs in it): words and their Porter stems (marked "!" inside a
 * negation's scope), their word clusters (marked the same), word pairs, VADER valence classes (flipped by negation), and shape cues (a
 * question, a conditional, an exclamation, a contrast).
 */
export function featuresOf(text: string, words: readonly string[], contrast = false, pairs: Pairs | null = null): string[] {
  const out: string[] = ['bias'];
  let pos = 0;
  let neg = 0;
  let left = 0;
  let irrealis = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const x = wordOf(w);
    let negated = false;
    if (x.negator) left = SCOPE;
    else {
      if (x.scopeEnd) left = 0;
      if (left > 0) {
        negated = true;
        left--;
      }
    }
    out.push(negated ? x.neg : w);
    if (x.stem !== null) out.push(negated ? x.negStem! : x.stem);
    for (const c of negated ? x.negClusters : x.clusters) out.push(c);
    if (i + 1 < words.length) {
      if (pairs === null) out.push(`${w} ${words[i + 1]}`);
      else {
        const pair = pairs.get(w)?.get(words[i + 1]!);
        if (pair !== undefined) out.push(pair);
      }
    }
    if (x.valence !== 0) {
      if (x.valence > 0 !== negated) pos += Math.abs(x.valence);
      else neg += Math.abs(x.valence);
    }
    if (x.irrealis) irrealis = true;
  }
  if (pos > 0) out.push(pos >= 2 ? 'v+2' : 'v+1');
  if (neg > 0) out.push(neg >= 2 ? 'v-2' : 'v-1');
  if (pos > neg) out.push('v>');
  else if (neg > pos) out.push('v<');
  if (irrealis) out.push('~irrealis');
  if (contrast) out.push('~contrast');
  if (text.includes('?')) out.push('~question');
  if (text.includes('!')) out.push('~exclaim');
  return out;
}
