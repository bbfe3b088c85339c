/** Scores an analyser on labelled rows through the path /insights.json takes (ReviewAnalyser): shared by the evaluation and the cross-validation. */
import { ReviewAnalyser } from '../../src/core/insights/per-review.js';
import type { AspectModel } from '../../src/core/insights/model.js';
import type { Business } from '../../src/core/schema/business.js';
import type { Review } from '../../src/core/schema/review.js';
import { CORPUS_ASPECTS, type Pol, type Row } from './absa-corpus.js';

/** Taxonomy ids in the corpus's scheme: customer service is part of its professionalism. */
export const TO_CORPUS: Record<string, string> = { quality_of_work: 'quality', technical_knowledge: 'knowledge', customer_service: 'professionalism' };

export interface Figures {
  aspect_precision: number;
  aspect_recall: number;
  aspect_f1: number;
  polarity_accuracy: number;
  review_polarity: number | null;
}

export interface Score {
  figures: Figures;
  /** Per corpus aspect: labelled, found, precision, recall, F1, polarity accuracy. */
  table: Record<string, Record<string, string | number>>;
  /** Per corpus aspect: found and labelled, found and not labelled, labelled and not found. */
  counts: Record<string, { tp: number; fp: number; fn: number }>;
  kinds: { missed: number; extra: number; polarity: number; review: number };
  /** Aspect polarity on the judgements found whose labelled polarity goes against the stars (a complaint at 4-5, praise at 1-2). */
  againstStars: { right: number; of: number };
  errors: string[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const f1Of = (p: number, r: number) => (p + r ? (2 * p * r) / (p + r) : 0);

const business = { name: 'Evaluation', service_areas: [], services: [], technicians: [] } as unknown as Business;

/** An analyser for scoring: the shipped model, or `model` (cross-validation). */
export const scorer = (model?: AspectModel): ReviewAnalyser => new ReviewAnalyser(business, model);

export function score(analyser: ReviewAnalyser, rows: readonly Row[], withStars: boolean): Score {
  let tp = 0, fp = 0, fn = 0, polRight = 0, revRight = 0;
  const per = new Map<string, { tp: number; fp: number; fn: number; pol: number }>(CORPUS_ASPECTS.map((a) => [a, { tp: 0, fp: 0, fn: 0, pol: 0 }]));
  const errors: string[] = [];
  const kinds = { missed: 0, extra: 0, polarity: 0, review: 0 };
  const againstStars = { right: 0, of: 0 };
  rows.forEach((row, i) => {
    const review = { id: `R${i}`, rating: withStars ? row.stars : 3, text: row.text } as Review;
    const a = analyser.analyse(review);
    const found = new Map<string, Pol>();
    for (const h of a.per.aspects) {
      const id = TO_CORPUS[h.aspect] ?? h.aspect;
      // Two of ours in one of theirs (professionalism + customer service): a disagreement is a mixed verdict.
      const before = found.get(id);
      found.set(id, before && before !== h.polarity ? 'neutral' : h.polarity);
    }
    for (const [id, pol] of found) {
      const e = per.get(id);
      if (row.aspects.has(id)) {
        tp++;
        if (e) e.tp++;
        const labelled = row.aspects.get(id);
        if (withStars && ((row.stars >= 4 && labelled === 'negative') || (row.stars <= 2 && labelled === 'positive'))) {
          againstStars.of++;
          if (labelled === pol) againstStars.right++;
        }
        if (labelled === pol) {
          polRight++;
          if (e) e.pol++;
        } else {
          kinds.polarity++;
          errors.push(`polarity ${id}: expected ${labelled}, got ${pol} | ${row.text}`);
        }
      } else {
        fp++;
        if (e) e.fp++;
        kinds.extra++;
        errors.push(`extra    ${id} (${pol}) | ${row.text}`);
      }
    }
    for (const id of row.aspects.keys()) {
      if (found.has(id)) continue;
      fn++;
      per.get(id)!.fn++;
      kinds.missed++;
      errors.push(`missed   ${id} (${row.aspects.get(id)}) | ${row.text}`);
    }
    if (withStars) {
      if (a.per.sentiment === row.overall) revRight++;
      else {
        kinds.review++;
        errors.push(`review   expected ${row.overall}, got ${a.per.sentiment} (${row.stars} stars) | ${row.text}`);
      }
    }
  });
  const precision = tp / (tp + fp || 1);
  const recall = tp / (tp + fn || 1);
  const figures: Figures = {
    aspect_precision: r3(precision),
    aspect_recall: r3(recall),
    aspect_f1: r3(f1Of(precision, recall)),
    polarity_accuracy: r3(polRight / (tp || 1)),
    review_polarity: withStars ? r3(revRight / rows.length) : null,
  };
  const table: Score['table'] = {};
  for (const [id, e] of per) {
    const p = e.tp / (e.tp + e.fp || 1);
    const r = e.tp / (e.tp + e.fn || 1);
    table[id] = { labelled: e.tp + e.fn, found: e.tp + e.fp, precision: r3(p), recall: r3(r), f1: r3(f1Of(p, r)), polarity: e.tp ? r3(e.pol / e.tp) : '-' };
  }
  return { figures, table, counts: Object.fromEntries([...per].map(([id, e]) => [id, { tp: e.tp, fp: e.fp, fn: e.fn }])), kinds, againstStars, errors };
}
