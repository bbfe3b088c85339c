import type { Business } from '../schema/business.js';
import type { PerReview } from '../schema/insights.js';
import type { Review } from '../schema/review.js';
import { AspectAnalyser, polarityOf, type SentenceAnalysis } from './analyser.js';
import { candidateTechnicianNames, entityMatchers, type EntityMatchers } from './entities.js';
import { TAXONOMY_VERSION } from './taxonomy.js';
import { reviewBigrams, topicStopWords } from './topics.js';

/** Bumped whenever the analysis of a given text can change (lexicon, rules). */
export const ANALYSER_VERSION = '1.0.0';
export const MODEL_NAME = `reviewcast-absa ${ANALYSER_VERSION} (lexicon and rules, taxonomy v${TAXONOMY_VERSION}, local)`;

export interface ReviewAnalysis {
  per: PerReview;
  /** The sentences with at least one aspect: the only ones later passes (pull quote, unlisted technicians) read. */
  sentences: SentenceAnalysis[];
  /** Names in a technician's role that are not on the roster. */
  candidates: string[];
  /** Judging phrases of the sentences naming each technician, service or problem ("t:Al", "s:ac_repair", "p:leak"). */
  entityPhrases: Map<string, string[]>;
  /** Two-word phrases the review uses, for topics. */
  bigrams: string[];
}

/** Compresses an unbounded sum of judgements into -1..1, as VADER's compound score does. */
function normalise(sum: number): number {
  return Math.round((sum / Math.sqrt(sum * sum + 4)) * 1000) / 1000;
}

/** Analysis of single reviews for one business profile; `key` changes when the profile changes what is found. */
export class ReviewAnalyser {
  readonly analyser: AspectAnalyser;
  readonly matchers: EntityMatchers;
  readonly key: string;
  private readonly known: Set<string>;
  private readonly topicSkip: (w: string) => boolean;

  constructor(readonly business: Business) {
    this.analyser = new AspectAnalyser(business.custom_aspects ?? []);
    this.matchers = entityMatchers(business);
    this.known = new Set(business.technicians.flatMap((t) => [t.name, ...t.aliases]).map((n) => n.toLowerCase()));
    this.topicSkip = topicStopWords(business);
    this.key = JSON.stringify([ANALYSER_VERSION, business.technicians, business.services, business.service_areas, business.custom_aspects ?? [], business.name]);
  }

  analyse(r: Review): ReviewAnalysis {
    const text = r.text ?? '';
    const sentences = text ? this.analyser.text(text, r.rating) : [];
    const byAspect = new Map<string, { score: number; phrases: string[] }>();
    let sum = 0;
    for (const s of sentences) {
      sum += s.score;
      for (const a of s.aspects) {
        const e = byAspect.get(a.aspect) ?? { score: 0, phrases: [] };
        e.score += a.score;
        e.phrases.push(...a.phrases);
        byAspect.set(a.aspect, e);
      }
    }
    const fromText = Math.abs(sum) > 0.05;
    // Stars decide only when the words do not: a rating-only review, or text with no judgement in it.
    const score = fromText ? normalise(sum) : (r.rating - 3) / 2;
    const per: PerReview = {
      sentiment: polarityOf(score),
      score,
      basis: fromText ? 'text' : 'rating',
      aspects: [...byAspect].map(([aspect, e]) => ({ aspect, polarity: polarityOf(e.score), phrases: [...new Set(e.phrases)] })),
      technicians: text ? this.matchers.technicians.filter((t) => t.re.test(text)).map((t) => t.name) : [],
      services: text ? this.matchers.services.filter((s) => s.re.test(text)).map((s) => s.id) : [],
      problems: text ? this.matchers.problems.filter((p) => p.re.test(text)).map((p) => p.id) : [],
    };
    const entityPhrases = new Map<string, string[]>();
    const named: [string, RegExp][] = [
      ...this.matchers.technicians.filter((t) => per.technicians.includes(t.name)).map((t): [string, RegExp] => [`t:${t.name}`, t.re]),
      ...this.matchers.services.filter((x) => per.services.includes(x.id)).map((x): [string, RegExp] => [`s:${x.id}`, x.re]),
      ...this.matchers.problems.filter((x) => per.problems.includes(x.id)).map((x): [string, RegExp] => [`p:${x.id}`, x.re]),
    ];
    for (const [key, re] of named) {
      const phrases: string[] = [];
      for (const s of sentences) if (re.test(s.text)) for (const h of s.aspects) if (h.polarity !== 'neutral') phrases.push(...h.phrases);
      entityPhrases.set(key, phrases);
    }
    return {
      per,
      // Kept for every review between revisions, so only what is read later is kept.
      sentences: sentences.filter((s) => s.aspects.length > 0),
      candidates: text ? candidateTechnicianNames(text, this.business, this.known) : [],
      entityPhrases,
      bigrams: reviewBigrams(sentences, this.topicSkip),
    };
  }
}

/**
 * Keeps each review's analysis between revisions: only reviews whose text or rating changed
 * (or all of them, when the business profile changed what is looked for) are analysed again.
 */
export class AnalysisCache {
  private entries = new Map<string, { fingerprint: string; analysis: ReviewAnalysis }>();
  private key = '';
  hits = 0;
  misses = 0;

  get(analyser: ReviewAnalyser, r: Review): ReviewAnalysis {
    if (analyser.key !== this.key) {
      this.entries = new Map();
      this.key = analyser.key;
    }
    const fingerprint = `${r.rating}\u0000${r.text ?? ''}`;
    const hit = this.entries.get(r.id);
    if (hit && hit.fingerprint === fingerprint) {
      this.hits++;
      return hit.analysis;
    }
    this.misses++;
    const analysis = analyser.analyse(r);
    this.entries.set(r.id, { fingerprint, analysis });
    return analysis;
  }

  /** Forgets reviews that are gone. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
  }
}
