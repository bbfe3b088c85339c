/** Training of the aspect model from labelled rows: shared by `npm run train:insights` and the cross-validation. */
import { AspectAnalyser } from '../../src/core/insights/analyser.js';
import { train, type Example, type LinearJson, type TrainOptions } from '../../src/core/insights/linear.js';
import { AspectModel, POLARITIES } from '../../src/core/insights/model.js';
import { splitSentences } from '../../src/core/insights/text.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { CORPUS_ASPECTS, type Row } from './absa-corpus.js';
import { score, scorer } from './absa-score.js';

export const SEED = 20261123;

export interface Settings {
  threshold: number;
  epochs: number;
  rate: number;
  l2: number;
  minCount: number;
  prune: number;
  /** The review's rating as a polarity feature (1/0). */
  stars: number;
  /** Weights averaged over the second half of the epochs (1/0). */
  average: number;
  /** L2 of the detection part (`l2` is the polarity and review parts'). */
  l2Detect: number;
  /** The share of its threshold from which an aspect the lexicon judges too is found (1: no lower threshold). */
  backed: number;
  /** How far past its threshold (logits) an aspect must be to be found in the clause of an aspect further past its own (0: no further). Thresholds are chosen (chooseThresholds) with it on. */
  secondary: number;
  /** The share of polarity examples learnt without the review's stars (seeded), so the words learn to carry a verdict alone. */
  starsDrop: number;
  /** The share of the starless writers' judgements learnt with their stars after all (seeded), so the stars learn they can be wrong. */
  starlessStars: number;
}

export const SETTINGS: Settings = { threshold: 0.3, epochs: 25, rate: 0.2, l2: 3e-5, minCount: 2, prune: 0.05, stars: 1, average: 1, l2Detect: 0.03, backed: 0.8, secondary: 0.25, starsDrop: 0, starlessStars: 0 };

/**
 * model.json's method line (shown in /insights.json's `model`), naming how many writers' files it
 * was trained on and whether its thresholds were chosen on the guided writers' folds or given to
 * training (meant for the thresholds an earlier choice gave: `train:insights -- thresholds=`).
 */
export const methodOf = (writers: number, thresholds: 'chosen' | 'given' = 'chosen', starless = 0, secondary = SETTINGS.secondary, guided = 0, weight = 1): string =>
  `logistic regression over words, stems, word clusters (from word vectors), word pairs, negation scope, VADER valence and the domain lexicon, trained on blind-written labelled reviews of ${writers} writers${starless ? ` (and ${starless} more who wrote against the stars on purpose, read without their stars)` : ''}${guided ? ` and of ${guided} who wrote to a guide of the evaluation's labelling conventions${weight > 1 ? ` (their rows ${weight} times)` : ''}` : ''}, a threshold per aspect ${thresholds === 'chosen' ? (guided ? 'chosen on folds of the guided writers' : 'chosen across writers') : 'from an earlier choice'} (0.8 of it where the lexicon judges the aspect too${secondary ? `; ${secondary} logits past it for a second aspect in a clause` : ''}); polarity read on the clause that names the aspect, with the review's stars`;

export interface Trained {
  model: AspectModel;
  sizes: { detect: number; polarity: number; review: number; judgements: number };
}

/** The three parts trained on `rows`: detection, polarity on the clause of each aspect, review polarity. */
export function trainModel(rows: readonly Row[], s: Settings = SETTINGS): Trained {
  const options = (kind: TrainOptions['kind'], l2 = s.l2): TrainOptions => ({ kind, epochs: s.epochs, rate: s.rate, l2, seed: SEED, minCount: s.minCount, prune: s.prune, average: s.average === 1 });
  const lexicon = new AspectAnalyser();
  const views = rows.map((r) => lexicon.view(r.text));
  const empty: LinearJson = { labels: [], weights: {} };

  const detect = train(CORPUS_ASPECTS, rows.map((r, i) => ({ features: views[i]!.features, target: CORPUS_ASPECTS.map((a) => (r.aspects.has(a) ? 1 : 0)), repeat: r.weight })), options('logistic', s.l2Detect));
  const detector = AspectModel.fromParts({ method: '', trained_on: { files: [], rows: 0 }, thresholds: CORPUS_ASPECTS.map(() => s.threshold), backed: 1, secondary: 0, detect, polarity: empty, review: empty });

  // Polarity is learnt where inference reads it: on the clause the detector ties most to the
  // aspect; each feature once as it is and once joined to the aspect ("pricing|high").
  const polarityExamples: Example[] = [];
  const drop = seededRandom(SEED + 1);
  rows.forEach((r, i) => {
    for (const [aspect, pol] of r.aspects) {
      const clause = detector.clauseText(views[i]!, CORPUS_ASPECTS.indexOf(aspect as (typeof CORPUS_ASPECTS)[number]));
      const starred = r.starless ? s.starlessStars > 0 && drop() < s.starlessStars : drop() >= s.starsDrop;
      const features = s.stars && starred ? [...clause.features, `stars:${r.stars}`] : clause.features;
      polarityExamples.push({ features: [...features, ...features.map((f) => `${aspect}|${f}`)], target: POLARITIES.indexOf(pol), repeat: r.weight });
    }
  });
  const joined = train(POLARITIES, polarityExamples, options('softmax'));
  // Packed for inference: one lookup per feature gives its shared weights and every aspect's own.
  const packed: Record<string, number[]> = {};
  for (const [name, w] of Object.entries(joined.weights)) {
    const bar = name.indexOf('|');
    const k = bar > 0 ? CORPUS_ASPECTS.indexOf(name.slice(0, bar) as (typeof CORPUS_ASPECTS)[number]) : -1;
    const feature = k >= 0 ? name.slice(bar + 1) : name;
    const slot = (packed[feature] ??= new Array<number>(3 * (CORPUS_ASPECTS.length + 1)).fill(0));
    for (let p = 0; p < 3; p++) slot[3 * (k + 1) + p] = w[p]!;
  }
  const polarity: LinearJson = { labels: [...POLARITIES, ...CORPUS_ASPECTS.flatMap((a) => POLARITIES.map((p) => `${a}|${p}`))], weights: packed };

  // A review is its sentences, as the analyser reads them one by one.
  const review = train(
    POLARITIES,
    // Rows written against their stars say nothing of how a whole review leans.
    rows.filter((r) => !r.starless).map((r) => ({ features: [...splitSentences(r.text).flatMap((t) => lexicon.view(t).features), `stars:${r.stars}`], target: POLARITIES.indexOf(r.overall), repeat: r.weight })),
    options('softmax'),
  );

  const model = AspectModel.fromParts({ method: '', trained_on: { files: [], rows: rows.length }, thresholds: CORPUS_ASPECTS.map(() => s.threshold), backed: s.backed, secondary: s.secondary, detect, polarity, review });
  const size = (m: LinearJson) => Object.keys(m.weights).length;
  return { model, sizes: { detect: size(detect), polarity: size(polarity), review: size(review), judgements: polarityExamples.length } };
}

/** The thresholds tried for each aspect. */
const GRID = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55];

/**
 * Per-aspect thresholds chosen by leaving out one of `writers` at a time (train:insights passes the
 * guided writers' folds, with the writers' and starless rows as `always`; cv:insights' `perAspect=1`
 * the writers of the fold, with the starless and guided rows as `always`: rows every model trains on and
 * none is scored on): for each one's rows, a model trained on the others is scored at every threshold of the grid; then, aspect by aspect (a few rounds), the
 * threshold that gives the best F1 over all aspects of all held-out writers together.
 */
export function chooseThresholds(writers: readonly (readonly Row[])[], s: Settings = SETTINGS, always: readonly Row[] = []): { thresholds: number[]; f1: number } {
  const A = CORPUS_ASPECTS.length;
  // counts[g][a] = pooled tp/fp/fn of aspect a at GRID[g].
  const counts = GRID.map(() => CORPUS_ASPECTS.map(() => ({ tp: 0, fp: 0, fn: 0 })));
  writers.forEach((held, i) => {
    const model = trainModel([...writers.filter((_, j) => j !== i).flat(), ...always], s).model;
    GRID.forEach((t, g) => {
      const c = score(scorer(model.withThresholds(CORPUS_ASPECTS.map(() => t))), held, true).counts;
      CORPUS_ASPECTS.forEach((a, k) => {
        counts[g]![k]!.tp += c[a]!.tp;
        counts[g]![k]!.fp += c[a]!.fp;
        counts[g]![k]!.fn += c[a]!.fn;
      });
    });
  });
  const f1 = (choice: readonly number[]) => {
    let tp = 0, fp = 0, fn = 0;
    choice.forEach((g, k) => {
      tp += counts[g]![k]!.tp;
      fp += counts[g]![k]!.fp;
      fn += counts[g]![k]!.fn;
    });
    return (2 * tp) / (2 * tp + fp + fn || 1);
  };
  const choice = new Array<number>(A).fill(GRID.indexOf(s.threshold));
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < A; k++) {
      let best = choice[k]!;
      let bestF1 = f1(choice);
      for (let g = 0; g < GRID.length; g++) {
        choice[k] = g;
        // Strictly better only: ties keep the nearer-to-default threshold already chosen.
        if (f1(choice) > bestF1 + 1e-9) {
          best = g;
          bestF1 = f1(choice);
        }
      }
      choice[k] = best;
    }
  }
  return { thresholds: choice.map((g) => GRID[g]!), f1: Math.round(f1(choice) * 1000) / 1000 };
}
