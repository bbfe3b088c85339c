import { DOMAIN_LEXICON, GENERAL_LEXICON, INTENSIFIERS, NEGATORS, type LexEntry } from './lexicon.js';
import { PhraseMatcher } from './matcher.js';
import { BUILTIN_ASPECTS, CONDUCT_ASPECT, STAFF_ASPECT, type AspectDef } from './taxonomy.js';
import { splitClauses, splitSentences, tokenize } from './text.js';

export type Polarity = 'positive' | 'neutral' | 'negative';

export interface AspectHit {
  aspect: string;
  polarity: Polarity;
  score: number;
  /** The words that carried the judgement (or the mention), for top_phrases. */
  phrases: string[];
}

export interface SentenceAnalysis {
  text: string;
  score: number;
  aspects: AspectHit[];
}

/** Negation flips and damps, as in VADER: "not great" is mildly bad, not terrible. */
const NEGATION_FACTOR = -0.75;
const NEGATION_WINDOW = 3;
const EPSILON = 0.05;

interface Item {
  value: number;
  aspect: string | null;
  phrase: string;
  negated: boolean;
}

interface ClauseResult {
  score: number;
  aspects: Map<string, { score: number; polar: boolean; mixed: boolean; phrases: string[] }>;
}

export function polarityOf(score: number): Polarity {
  return score > EPSILON ? 'positive' : score < -EPSILON ? 'negative' : 'neutral';
}

/**
 * Sentence-level aspect-based sentiment from phrase lexicons with negation, contrast and
 * intensifiers. Deterministic and local: the same text always gives the same result.
 */
export class AspectAnalyser {
  private readonly matcher: PhraseMatcher;
  readonly aspects: readonly AspectDef[];

  constructor(extraAspects: readonly AspectDef[] = []) {
    this.aspects = [...BUILTIN_ASPECTS, ...extraAspects.filter((a) => !BUILTIN_ASPECTS.some((b) => b.id === a.id))];
    const cues: LexEntry[] = this.aspects.flatMap((a) => a.cues.map((c): LexEntry => [c.toLowerCase(), 0, a.id]));
    const extraPolar = this.aspects.flatMap((a) => [
      ...(a.positive ?? []).map((p): LexEntry => [p.toLowerCase(), 1.5, a.id]),
      ...(a.negative ?? []).map((p): LexEntry => [p.toLowerCase(), -1.5, a.id]),
    ]);
    this.matcher = new PhraseMatcher([...DOMAIN_LEXICON, ...GENERAL_LEXICON, ...cues, ...extraPolar], NEGATORS);
  }

  private clause(clause: string): ClauseResult {
    const tokens = tokenize(clause);
    const matches = this.matcher.scan(tokens);
    const inMatch = new Uint8Array(tokens.length);
    for (const m of matches) inMatch.fill(1, m.start, m.end);
    const items: Item[] = [];
    const mentioned = new Map<string, string[]>();
    for (const m of matches) {
      const phrase = tokens.slice(m.start, m.end).join(' ');
      if (m.pattern.aspect) {
        const list = mentioned.get(m.pattern.aspect) ?? [];
        list.push(phrase);
        mentioned.set(m.pattern.aspect, list);
      }
      if (m.pattern.polarity === 0) continue;
      let value = m.pattern.polarity;
      let negated = false;
      if (!m.pattern.fixed) {
        for (let j = m.start - 1; j >= Math.max(0, m.start - NEGATION_WINDOW); j--) {
          // A negator governs the nearest judgement only: another phrase in between ends its reach.
          if (inMatch[j]) break;
          if (NEGATORS.has(tokens[j]!)) {
            value *= NEGATION_FACTOR;
            negated = true;
            break;
          }
        }
      }
      for (let j = m.start - 1; j >= Math.max(0, m.start - 2); j--) {
        const boost = inMatch[j] ? undefined : INTENSIFIERS.get(tokens[j]!);
        if (boost !== undefined) {
          value *= boost;
          break;
        }
      }
      items.push({ value, aspect: m.pattern.aspect, phrase: negated ? `not ${phrase}` : phrase, negated });
    }
    // "The office staff were rude": conduct words describe the staff named, not the technician.
    if (mentioned.has(STAFF_ASPECT)) {
      for (const it of items) if (it.aspect === CONDUCT_ASPECT) it.aspect = STAFF_ASPECT;
      mentioned.delete(CONDUCT_ASPECT);
    }
    const general = items.filter((i) => i.aspect === null);
    const aspects: ClauseResult['aspects'] = new Map();
    for (const [aspect, mentions] of mentioned) {
      const own = items.filter((i) => i.aspect === aspect);
      const basis = own.length > 0 ? own : general;
      const score = basis.reduce((s, i) => s + i.value, 0);
      const mixed = basis.some((i) => i.value > 0) && basis.some((i) => i.value < 0);
      // Judged by general words: quote them with the mention, in text order ("great job").
      const phrases = own.length ? own.map((i) => i.phrase) : general.length ? [[...general.map((g) => g.phrase), mentions[0]!].sort((a, b) => clause.toLowerCase().indexOf(a) - clause.toLowerCase().indexOf(b)).join(' ')] : mentions;
      aspects.set(aspect, { score, polar: basis.length > 0, mixed, phrases });
    }
    // A bare mention ("the bill") next to judged aspects is context, not a finding.
    if ([...aspects.values()].some((a) => a.polar)) {
      for (const [id, a] of aspects) if (!a.polar) aspects.delete(id);
    }
    return { score: items.reduce((s, i) => s + i.value, 0), aspects };
  }

  /** One sentence; `rating` only breaks ties between equally strong praise and complaint. */
  sentence(text: string, rating?: number): SentenceAnalysis {
    const merged = new Map<string, { score: number; mixed: boolean; phrases: string[] }>();
    let score = 0;
    let previous: string[] = [];
    for (const clauseText of splitClauses(text)) {
      const c = this.clause(clauseText);
      score += c.score;
      if (c.aspects.size === 0 && previous.length > 0 && Math.abs(c.score) > EPSILON) {
        // "Pricey, but worth it": a judgement with no aspect of its own answers the clause before.
        for (const id of previous) merged.set(id, { score: c.score, mixed: false, phrases: merged.get(id)?.phrases ?? [] });
        continue;
      }
      for (const [id, a] of c.aspects) {
        const before = merged.get(id);
        // Contrast: the later clause has the last word, unless it says nothing either way.
        if (!before || Math.abs(a.score) > EPSILON) merged.set(id, { score: a.score, mixed: a.mixed, phrases: a.phrases });
      }
      if (c.aspects.size > 0) previous = [...c.aspects.keys()];
    }
    const aspects: AspectHit[] = [];
    for (const [aspect, a] of merged) {
      let s = a.score;
      if (Math.abs(s) <= EPSILON && a.mixed && rating !== undefined) s = rating >= 4 ? 0.1 : rating <= 2 ? -0.1 : 0;
      aspects.push({ aspect, polarity: polarityOf(s), score: s, phrases: a.phrases });
    }
    return { text, score, aspects };
  }

  /** Every sentence of a review text. */
  text(text: string, rating?: number): SentenceAnalysis[] {
    return splitSentences(text).map((s) => this.sentence(s, rating));
  }
}

