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

export function splitClauses(sentence: string): string[] {
  return sentence
    .split(CONTRAST)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Lower-case word tokens; apostrophes and inner hyphens stay inside words ("doesn't", "no-show"). */
export function tokenize(clause: string): string[] {
  return clause.toLowerCase().match(/[\p{L}\p{N}$]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
}
