/** Sentence splitting, tokens, and the phrases quoted from review text: whole runs of words the writer wrote. */
import { isAdjective, isAdverb, isPast, PRESENT_VERB, PRONOUN, SUPERLATIVE } from './english.js';
import { NEGATORS } from './lexicon.js';

/** Sentences: split after . ! ? or a line break. */
export function splitSentences(text: string): string[] {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Contrast splits a sentence: in "X but Y" the two sides are judged apart, and Y has the last word. */
const CONTRAST = /\s*(?:,|;)?\s+(?:but|however|although|though|yet|except that|whereas|even though)\s+|;\s*/i;

/** White space other than single spaces: what splitClauses evens out first. */
const ODD_SPACE = /\s\s|[^\S ]/;

export function splitClauses(sentence: string): string[] {
  // Runs of white space as one space first: CONTRAST's optional spaces around the mark would otherwise
  // try every split of a long run (10,000 spaces took minutes). Most sentences have none, and the
  // replace alone cost more than the split.
  return (ODD_SPACE.test(sentence) ? sentence.replace(/\s+/g, ' ') : sentence)
    .split(CONTRAST)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Lower-case word tokens; apostrophes and inner hyphens stay inside words ("doesn't", "no-show"). */
export function tokenize(clause: string): string[] {
  return clause.toLowerCase().match(/[\p{L}\p{N}$]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
}

/**
 * A word, or a mark that ends what a negator or a general judgement reaches: a comma (not one
 * inside a number, "$1,200"), a semicolon, a colon, a bracket, a dash between words.
 */
const WORD_OR_MARK = /([\p{L}\p{N}$]+(?:['-][\p{L}\p{N}]+)*)|,(?!\d)|(?<!\d),|[;:()\u2013\u2014]|\s-+\s/gu;

/** tokenize's words, and per word whether such a mark stands before it ("No, it was fine": the "no" does not reach "fine"). */
export function tokenizeMarked(clause: string): { tokens: string[]; breaks: Uint8Array } {
  const lower = clause.toLowerCase();
  const tokens: string[] = [];
  const marks: number[] = [];
  let mark = false;
  WORD_OR_MARK.lastIndex = 0;
  for (let m = WORD_OR_MARK.exec(lower); m !== null; m = WORD_OR_MARK.exec(lower)) {
    if (m[1] === undefined) mark = true;
    else {
      if (mark && tokens.length > 0) marks.push(tokens.length);
      tokens.push(m[1]);
      mark = false;
    }
  }
  const breaks = new Uint8Array(tokens.length);
  for (const i of marks) breaks[i] = 1;
  return { tokens, breaks };
}

/** Words a quoted phrase may not end on: it would stop mid-phrase ("ignored my", "found the"). */
export const FUNCTION_WORDS = new Set(
  `a an the this that these those my our your his her their its me us him them it i we you he she they and or but nor so if than then to of at by for with from as into onto about what which who whom whose when where how why is was were be been being am are do does did has have had will would can could shall should may might must not no never very too just`.split(' '),
);
/**
 * Nor may it end on a conjunction or preposition that waits for its clause or noun ("fixed it
 * while"); a later piece may still start on one ("within budget"). Not "above", "below",
 * "beyond", "under": they also end phrases as adverbs ("above and beyond", "went under").
 */
const NO_END = new Set([...FUNCTION_WORDS, ...'while until during within between against toward towards upon via beneath'.split(' ')]);
const COORDINATING = new Set(['and', 'or']);
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'my', 'our', 'your', 'his', 'her', 'their', 'its']);
/** Subject pronouns: they start a clause, and a promise reported of one is completed by its modal ("said they would"). */
const SUBJECTS = new Set(['i', 'we', 'they', 'he', 'she', 'you', 'it']);
/** Words that start another clause or noun phrase after "and" / "or" ("quick and the price", "rate and they refused"). */
const STARTS_ANOTHER = new Set([...DETERMINERS, ...SUBJECTS]);

/** Whether token `k` is an "and" / "or" that starts another clause or noun phrase, not one joining two words ("service and price"). */
export function startsAnother(tokens: readonly string[], k: number): boolean {
  return COORDINATING.has(tokens[k]!) && STARTS_ANOTHER.has(tokens[k + 1] ?? '');
}

/** Words that open a noun phrase: a phrase ending on one and one word after it may stop inside it ("found the hidden", "no hot"). */
const NOUN_OPENERS = new Set([...DETERMINERS, 'no', 'any', 'every', 'some']);
/** Words that count or order ("the other two", "the last three guys", "a few hundred"): a number may follow them inside the phrase. */
const QUANTIFIERS = /^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|couple|dozen|other|next|last|first|few|several)$/;
/**
 * Words that do not carry a noun phrase on to its noun, beyond those that cannot end a phrase and
 * english.ts's verbs in the past, adverbs, verbs in -s and pronouns: prepositions and particles that
 * follow a noun ("found the leak behind"), words of a run-on ("no show tho"), day names.
 */
const ENDS_NOUN_PHRASE = new Set(
  `in on after before because since behind although unless near under through across without per except despite considering including either yet also pretty inside outside out up here there anywhere everywhere somewhere nowhere tho lol btw imo smh cant dont wont didnt doesnt isnt wasnt werent arent couldnt wouldnt shouldnt aint im ive itself himself herself themselves myself ourselves yourself yourselves nobody everybody anybody somebody nothing all both each many more most less least such same monday tuesday wednesday thursday friday saturday sunday`.split(' '),
);
/** A contraction ("that's", "isn't"): a clause's, never a noun phrase's; a possessive "competitor's" is. */
const CONTRACTED = /'(?:d|ll|re|ve|m|t)$|^(?:he|she|it|that|there|what|who|where|here|how|let)'s$/;
const carriesNoun = (w: string | undefined, counted: boolean): boolean =>
  w !== undefined &&
  !NO_END.has(w) &&
  (QUANTIFIERS.test(w)
    ? counted
    : !ENDS_NOUN_PHRASE.has(w) && !isPast(w) && !isAdverb(w) && !PRESENT_VERB.has(w) && !PRONOUN.has(w) && !CONTRACTED.test(w) && !w.startsWith('$'));
/** A word that stands before a noun rather than being one: an adjective, a superlative, a participle, a word in -ing, or one that counts. */
const modifies = (w: string): boolean => isAdjective(w) || SUPERLATIVE.test(w) || isPast(w) || w.endsWith('ing') || QUANTIFIERS.test(w);
/** A reported promise and what completes it ("said they would", "promised he'd"). */
const REPORTED = new Set(['said', 'says', 'promised']);
const MODALS = new Set(['would', 'will', 'could']);
/** A subject and its modal in one token ("they'd", "he'll"). */
const SUBJECT_MODAL = new RegExp(`^(?:${[...SUBJECTS].join('|')})'(?:d|ll)$`);
const AUXILIARY = new Set(['did', 'does', 'do', 'was', 'is', 'were', 'are', 'would', 'could', 'will', 'has', 'have', 'had', 'can']);
const MAX_GAP = 3;
const MAX_EXTEND = 3;
const MAX_NOUN = 2;

/**
 * A lexicon match as words people can read: the run of the sentence it covers (gaps filled in),
 * with its negation and auxiliary ("did not explain", not "not explain"), carried on past a
 * trailing function word to the next content word ("ignored my calls"). Null when no readable
 * phrase can be made. `stops`: 1 before a token no phrase (nor its negator) may run into (a clause's
 * start); `from`: the token the phrase's clause starts at (an earlier clause may hold the same words);
 * `marks`: 1 before a token a mark stands before (tokenizeMarked's breaks).
 */
export function readablePhrase(phrase: string, tokens: readonly string[], stops?: Uint8Array, from = 0, marks?: Uint8Array): string | null {
  let words = phrase.split(' ');
  const negated = words[0] === 'not' && words.length > 1;
  if (negated) words = words.slice(1);
  for (let start = from; start < tokens.length; start++) {
    if (tokens[start] !== words[0]) continue;
    let end = start + 1;
    let ok = true;
    for (let wi = 1; wi < words.length; wi++) {
      const w = words[wi]!;
      let j = end;
      // Nor across "and the", "and they" ...: the words after it are another phrase's ("quick and the price").
      while (j < tokens.length && j - end <= MAX_GAP && tokens[j] !== w && !startsAnother(tokens, j)) j++;
      if (j >= tokens.length || tokens[j] !== w || j - end > MAX_GAP) {
        ok = false;
        break;
      }
      end = j + 1;
    }
    if (!ok || end - start > words.length + MAX_GAP || crossesStop(stops, start, end)) continue;
    let first = start;
    if (negated) {
      let j = start - 1;
      // Any negator the analyser heeds ("nobody called back", "never showed"), with its auxiliary.
      while (j >= Math.max(0, start - MAX_GAP) && !NEGATORS.has(tokens[j]!) && !tokens[j]!.endsWith("n't")) j--;
      if (j < Math.max(0, start - MAX_GAP) || crossesStop(stops, j, start + 1)) continue;
      // The auxiliary only from the negator's own clause ("would, but never on time" is "never on time").
      first = j > 0 && NEGATORS.has(tokens[j]!) && AUXILIARY.has(tokens[j - 1]!) && !crossesStop(stops, j - 1, j + 1) ? j - 1 : j;
    }
    let extended = 0;
    const last = stops === undefined ? tokens.length : nextStop(stops, end);
    // "when they said" says when only with what they said: "when they said they would", a whole phrase where
    // the sentence ends on its modal (mid-sentence it would stop on a function word, as "they would, which ...").
    if (REPORTED.has(tokens[end - 1]!) && !marks?.[end] && !marks?.[end + 1] && !crossesStop(stops, end - 1, Math.min(end + 2, tokens.length))) {
      if (end + 1 === tokens.length && SUBJECT_MODAL.test(tokens[end]!)) return tokens.slice(first, end + 1).join(' ');
      if (end + 2 === tokens.length && SUBJECTS.has(tokens[end]!) && MODALS.has(tokens[end + 1]!)) return tokens.slice(first, end + 2).join(' ');
    }
    // An object "it" before "and" or "or" ends its phrase ("fixed it and showed me", "worth it and a bit slow"):
    // carried on, the phrase would take the start of the next one.
    const closed = () => tokens[end - 1] === 'it' && COORDINATING.has(tokens[end] ?? '');
    while (NO_END.has(tokens[end - 1]!) && extended < MAX_EXTEND && end < last && !closed()) {
      end++;
      extended++;
    }
    // A phrase that runs to the end of the sentence is whole even on a function word ("did not seem to know what to do").
    if (NO_END.has(tokens[end - 1]!) && end < tokens.length && !closed()) return null;
    // "found the hidden" stops inside its noun phrase: a word after the determiner followed by more of
    // the phrase is its modifier, and the phrase takes the words up to its noun ("found the hidden leak",
    // "what a heat pump"; up to MAX_NOUN words, never across a mark).
    // Where the lexicon's own phrase ends so ("left a mess", "worth every penny"), only a word that modifies is followed to its noun ("not a cheap fix").
    if (NOUN_OPENERS.has(tokens[end - 2]!) && end - 2 >= first && (extended > 0 || modifies(tokens[end - 1]!))) {
      const until = Math.min(last, end + MAX_NOUN);
      while (end < until && !marks?.[end] && carriesNoun(tokens[end], QUANTIFIERS.test(tokens[end - 1]!))) {
        // A word in -ing goes on only to a noun after it or where the words end ("the bad heating element", "the bad wiring."; not "a mess doing it").
        const runEnds = end + 1 === last || marks?.[end + 1] === 1;
        if (tokens[end]!.endsWith('ing') && !runEnds && !(end + 1 < until && !marks?.[end + 1] && carriesNoun(tokens[end + 1], false))) break;
        end++;
      }
    }
    return tokens.slice(first, end).join(' ');
  }
  return null;
}

/** Whether tokens [from, to) run across a stop (a clause starts inside them after `from`). */
function crossesStop(stops: Uint8Array | undefined, from: number, to: number): boolean {
  if (stops === undefined) return false;
  // A loop rather than subarray().includes(): no view made per call (this runs for every phrase quoted).
  for (let k = from + 1; k < to; k++) if (stops[k] === 1) return true;
  return false;
}

/** The first stop at or after `from`, or the stops' length. */
function nextStop(stops: Uint8Array, from: number): number {
  const at = stops.indexOf(1, from);
  return at < 0 ? stops.length : at;
}

const isNegator = (w: string) => NEGATORS.has(w) || w.endsWith("n't");
/** Prepositions FUNCTION_WORDS leaves out (a phrase may end on them: "fit us in"), but none starts one. */
const PREPOSITIONS = new Set(['in', 'on']);

/**
 * Where a phrase may not run on: punctuation between words, quotation marks, a slash and dashes
 * (a comma or full stop between digits, "$1,200", "2.5", is part of the number).
 */
const BOUNDARY = /[.,](?!\d)|(?<!\d)[.,]|[;:!?()[\]{}"\u201c\u201d\u00ab\u00bb\u2026\u2013\u2014/]|(?<![\p{L}\p{N}])['\u2018\u2019]|['\u2018\u2019](?![\p{L}\p{N}])|\s-+\s/u;

/** A sentence's words as the runs between marks: what a quoted phrase or a topic may span. */
export function wordRuns(sentence: string): string[][] {
  const runs: string[][] = [];
  for (const part of sentence.split(BOUNDARY)) {
    const toks = tokenize(part);
    if (toks.length) runs.push(toks);
  }
  return runs;
}

/**
 * A phrase (a run of the sentence's words, from readablePhrase) cut where the writer's
 * punctuation or quotes cut it: "great job fast" from 'Great job, "fast" too' gives "great job"
 * and "fast". A piece a mark cut drops the function words it would otherwise start or end on.
 * Nothing when the phrase is not a run of the sentence's words (it would join words across a
 * contrast word the analyser took out).
 */
export function phrasePieces(phrase: string, runs: readonly (readonly string[])[]): string[] {
  const words = tokenize(phrase);
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    for (let i = 0; i < run.length; i++) {
      if (run[i] !== words[0]) continue;
      const pieces: string[][] = [];
      let piece: string[] = [];
      let rr = r;
      let j = i;
      let k = 0;
      for (; k < words.length; k++) {
        if (j === runs[rr]!.length) {
          pieces.push(piece);
          piece = [];
          rr++;
          j = 0;
          if (rr === runs.length) break;
        }
        if (runs[rr]![j] !== words[k]) break;
        piece.push(words[k]!);
        j++;
      }
      if (k < words.length) continue;
      pieces.push(piece);
      if (pieces.length === 1) return [phrase];
      // A negated phrase keeps only the pieces that carry their own negation ('was "not covered"' gives
      // "not covered", "no call, no show" both): a piece cut off from its negator would read the other way.
      const negated = words.some(isNegator);
      const out: string[] = [];
      for (const [n, p] of pieces.entries()) {
        // The last piece ends where readablePhrase ended the phrase; earlier ones where a mark cut it.
        let end = p.length;
        if (n < pieces.length - 1) while (end > 0 && NO_END.has(p[end - 1]!)) end--;
        // A later piece starts where a mark did: "and a warranty", "in a good way" lose their leading
        // function words, but not an auxiliary before its negator ("did not").
        let start = 0;
        if (n > 0) while (start < end && (FUNCTION_WORDS.has(p[start]!) || PREPOSITIONS.has(p[start]!)) && !isNegator(p[start]!) && !isNegator(p[start + 1] ?? '')) start++;
        const kept = p.slice(start, end);
        if (negated && !kept.some(isNegator)) continue;
        if (kept.some((w) => !FUNCTION_WORDS.has(w) && !isNegator(w))) out.push(kept.join(' '));
      }
      return out;
    }
  }
  return [];
}
