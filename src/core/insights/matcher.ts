/** Finds the phrase lexicon's patterns (words, alternatives, gaps) in a clause's tokens, longest first at each position. */
import type { LexEntry } from './lexicon.js';

export interface Pattern {
  /** Each slot: the words it accepts, or null for a gap of up to three words. */
  slots: (Set<string> | null)[];
  polarity: number;
  aspect: string | null;
  /** Starts with a negator: the phrase has its own negation. */
  fixed: boolean;
  text: string;
  /** The model feature of a match ("P:on time"). */
  feature: string;
  /** Its place in PhraseMatcher.patterns. */
  id: number;
}

export interface Match {
  pattern: Pattern;
  start: number;
  end: number;
}

const GAP = 3;

/** Patterns indexed by every word their first slot accepts, for a quick scan of a clause. */
export class PhraseMatcher {
  private readonly byFirst = new Map<string, Pattern[]>();
  /** Every pattern, by id: a reader keeps what it needs per pattern in an array rather than a map. */
  readonly patterns: Pattern[] = [];

  constructor(entries: readonly LexEntry[], negators: ReadonlySet<string>) {
    for (const [text, polarity, aspect] of entries) {
      const slots = text.split(/\s+/).map((w) => (w === '*' ? null : new Set(w.split('|'))));
      const first = slots[0];
      if (!first) throw new Error(`lexicon pattern "${text}" must start with a word`);
      const pattern: Pattern = { slots, polarity, aspect: aspect ?? null, fixed: [...first].some((w) => negators.has(w)), text, feature: `P:${text}`, id: this.patterns.length };
      this.patterns.push(pattern);
      for (const w of first) {
        const list = this.byFirst.get(w) ?? [];
        list.push(pattern);
        this.byFirst.set(w, list);
      }
    }
    // Longest first, so the first full match at a position is the one to keep.
    for (const list of this.byFirst.values()) list.sort((a, b) => b.slots.length - a.slots.length);
  }

  private matchAt(tokens: readonly string[], slots: Pattern['slots'], si: number, ti: number): number {
    if (si === slots.length) return ti;
    const slot = slots[si];
    if (slot === null) {
      for (let skip = 0; skip <= GAP && ti + skip <= tokens.length; skip++) {
        const end = this.matchAt(tokens, slots, si + 1, ti + skip);
        if (end >= 0) return end;
      }
      return -1;
    }
    if (ti >= tokens.length || !slot!.has(tokens[ti]!)) return -1;
    return this.matchAt(tokens, slots, si + 1, ti + 1);
  }

  /** Non-overlapping matches, left to right, longest at each position. */
  scan(tokens: readonly string[]): Match[] {
    const out: Match[] = [];
    let i = 0;
    while (i < tokens.length) {
      const candidates = this.byFirst.get(tokens[i]!);
      let best: Pattern | null = null;
      let bestEnd = i;
      if (candidates !== undefined) {
        for (const pattern of candidates) {
          const end = this.matchAt(tokens, pattern.slots, 0, i);
          if (end > bestEnd) {
            best = pattern;
            bestEnd = end;
          }
        }
      }
      if (best) {
        out.push({ pattern: best, start: i, end: bestEnd });
        i = bestEnd;
      } else i++;
    }
    return out;
  }
}
