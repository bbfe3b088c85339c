/** What can make a review theme: the stop words for a business, the shape of a topic, and the topic phrases of one review. */
import type { Business } from '../schema/business.js';
import { VALENCE } from './features.js';
import { isAdjective, isAdverb, isPast, PRESENT_VERB, PRONOUN, SUPERLATIVE } from './english.js';
import { tokenize } from './text.js';

const STOP = new Set(
  `a an the and or but if so to of in on at by for with from as is was were be been are am it its it's this that these those i me my we us our you your he him his she her they them their there here what which who whom when where why how all any both each few more most other some such no nor not only own same than too very can will just don't should now do did does done have has had having would could also up out about into over after before again then once get got one two three four five six seven eight nine ten us he's she's they're we're i'm i've we've didn't wasn't isn't couldn't wouldn't doesn't under above below beneath beyond during within without between against toward towards upon via while until across behind along near`.split(
    /\s+/,
  ),
);

/** Words that recur in reviews without being a theme: courtesy, framing, the business's own name, its people. */
const FRAMING = new Set('called call calling around because using used use time times second first thank thanks stars star definitely highly recommend recommended will company go-to really also again would could review five four'.split(' '));


/** "said he'd", "can't say", "we'll see": a contracted auxiliary is part of a clause, not of a topic (a possessive "tech's name" is). */
const CONTRACTION = /(?:n't|'d|'ll|'re|'ve|'m)$/;

/** What a word can be in a topic, as bits (topicWords). */
const NO_START = 1;
const NO_END = 2;
const PAST_FORM = 4;
const STANDS_FOR_OBJECT = 8;
const ING = 16;
const VALENCED = 32;
/** Not in a topic at all: a stop word, framing, the business's own name or its people's, a number, a word under three letters. */
const SKIP = 64;

/** A word's topic bits for one business (TopicWords). */
export type TopicWords = (w: string) => number;
/**
 * Distinct words kept with their bits, emptied when full, and the longest word kept: so the map
 * stays under about 5 MiB (50,000 keys of at most 32 characters and their entries); a longer
 * word (a run of letters with no space, a URL) is worked out each time it is met.
 */
const TOPIC_WORDS_MAX = 50_000;
const TOPIC_WORD_KEPT_MAX_LENGTH = 32;
const DIGITS = /^\d+$/;

/** What each word can be in a topic for this business, worked out once per distinct word rather than at every word and pair. */
export function topicWords(business: Business): TopicWords {
  const own = new Set([business.name, ...business.technicians.flatMap((t) => [t.name, ...t.aliases])].flatMap((n) => tokenize(n)));
  const known = new Map<string, number>();
  return (w: string): number => {
    let bits = known.get(w);
    if (bits !== undefined) return bits;
    // Numbers (invoice and street numbers) are endless and never topics: not kept.
    if (DIGITS.test(w)) return SKIP;
    const contraction = CONTRACTION.test(w);
    const adverb = isAdverb(w);
    const past = isPast(w);
    bits =
      (STOP.has(w) || FRAMING.has(w) || own.has(w) || w.length < 3 ? SKIP : 0) |
      (contraction || adverb || SUPERLATIVE.test(w) ? NO_START : 0) |
      (contraction || adverb || isAdjective(w) || past || PRESENT_VERB.has(w) ? NO_END : 0) |
      (past ? PAST_FORM : 0) |
      (PRONOUN.has(w) ? STANDS_FOR_OBJECT : 0) |
      (w.endsWith('ing') ? ING : 0) |
      (VALENCE.has(w) ? VALENCED : 0);
    if (w.length <= TOPIC_WORD_KEPT_MAX_LENGTH) {
      if (known.size >= TOPIC_WORDS_MAX) known.clear();
      known.set(w, bits);
    }
    return bits;
  };
}

/**
 * Whether two words (their topic bits) can start and end a topic, without a part-of-speech tagger: a topic is a
 * noun-ish phrase ("heat pump", "excellent job", "customer service") or a whole verb phrase
 * ("explained everything", "asked questions"). Word endings and short closed lists tell what
 * cannot end or start one (no contraction, adverb or superlative first; no contraction, adverb,
 * adjective, past form or verb in -s last).
 */
function isTopicShape(f: number, l: number): boolean {
  if (f & NO_START || l & NO_END) return false;
  if (l & STANDS_FOR_OBJECT) return (f & PAST_FORM) !== 0;
  // After a verb, an -ing word is a verb too ("stopped blowing", "kept tripping"): the phrase is cut before its object.
  return !(f & PAST_FORM && l & ING);
}

/**
 * The distinct topic phrases of one review's sentences, given as their runs of words between
 * marks (wordRuns, so never across punctuation or quotes): the runs of two or three words in which
 * each word leads on to the next as a topic does ("heat pump", "excellent customer service", "wore
 * shoe covers"), whole (no such word just before or after: not "pump work" out of "heat pump
 * work"), nor before "than" ("area cleaner than").
 */
export function topicPhrasesOf(sentences: readonly (readonly (readonly string[])[])[], wordBits: TopicWords): string[] {
  const seen = new Set<string>();
  const bits: number[] = [];
  for (const runs of sentences) {
    for (const toks of runs) {
      if (toks.length < 2) continue;
      bits.length = toks.length;
      for (let k = 0; k < toks.length; k++) bits[k] = wordBits(toks[k]!);
      let i = 0;
      while (i + 1 < toks.length) {
        let end = i + 1;
        while (end < toks.length && leadsOn(bits, end - 1)) end++;
        const n = end - i;
        if (toks[end] !== 'than') {
          // An opinion before a compound is the review's view of the topic, not another topic: "excellent customer service" counts for "customer service".
          if (n === 3 && (bits[i]! & (VALENCED | PAST_FORM)) === VALENCED) seen.add(`${toks[i + 1]} ${toks[i + 2]}`);
          else if (n === 2 || (n === 3 && isTopicShape(bits[i]!, bits[end - 1]!))) seen.add(toks.slice(i, end).join(' '));
        }
        // The pair that ended this run cannot start the next one.
        i = end;
      }
    }
  }
  return [...seen];
}

/** Whether word k leads on to word k + 1 as a topic does (`bits`: the words' topic bits). */
function leadsOn(bits: readonly number[], k: number): boolean {
  return !(bits[k]! & SKIP) && !(bits[k + 1]! & SKIP) && isTopicShape(bits[k]!, bits[k + 1]!);
}
