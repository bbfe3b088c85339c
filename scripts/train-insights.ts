/**
 * Trains the aspect model (src/core/insights/model.json) from the blind-written corpus in eval/
 * (absa-train-*.tsv): per-aspect logistic detection, a softmax polarity model read on the clause
 * that speaks of the aspect, and a softmax overall-polarity model over a review's sentences and
 * stars. The features are the analyser's own view of a text (words, stems, pairs, negation,
 * VADER valence, the domain lexicon's reading). Seeded: the same corpus gives the same file.
 */
import { writeFileSync } from 'node:fs';
import { AspectAnalyser } from '../src/core/insights/analyser.js';
import { train, type Example, type LinearJson, type TrainOptions } from '../src/core/insights/linear.js';
import { AspectModel, POLARITIES } from '../src/core/insights/model.js';
import { splitSentences } from '../src/core/insights/text.js';
import { CORPUS_ASPECTS, readCorpus } from './lib/absa-corpus.js';

const FILES = ['eval/absa-train-a.tsv', 'eval/absa-train-b.tsv'];
const SEED = 20261123;
const THRESHOLD = 0.3;
const options = (kind: TrainOptions['kind']): TrainOptions => ({ kind, epochs: 25, rate: 0.2, l2: 1e-3, seed: SEED, minCount: 2, prune: 0.05 });

const rows = FILES.flatMap((f) => readCorpus(new URL(`../${f}`, import.meta.url).pathname));
const lexicon = new AspectAnalyser();
const views = rows.map((r) => lexicon.view(r.text));
const empty: LinearJson = { labels: [], weights: {} };

const detect = train(CORPUS_ASPECTS, rows.map((r, i) => ({ features: views[i]!.features, target: CORPUS_ASPECTS.map((a) => (r.aspects.has(a) ? 1 : 0)) })), options('logistic'));
const detector = AspectModel.fromParts({ method: '', trained_on: { files: [], rows: 0 }, threshold: THRESHOLD, detect, polarity: empty, review: empty });

// Polarity is learnt where inference reads it: on the clause the detector ties most to the
// aspect; each feature once as it is and once joined to the aspect ("pricing|high").
const polarityExamples: Example[] = [];
rows.forEach((r, i) => {
  for (const [aspect, pol] of r.aspects) {
    const clause = detector.clauseText(views[i]!, CORPUS_ASPECTS.indexOf(aspect as (typeof CORPUS_ASPECTS)[number]));
    polarityExamples.push({ features: [...clause.features, ...clause.features.map((f) => `${aspect}|${f}`)], target: POLARITIES.indexOf(pol) });
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
  rows.map((r) => ({ features: [...splitSentences(r.text).flatMap((s) => lexicon.view(s).features), `stars:${r.stars}`], target: POLARITIES.indexOf(r.overall) })),
  options('softmax'),
);

const model = AspectModel.fromParts({
  method: 'logistic regression over words, stems, word pairs, negation scope, VADER valence and the domain lexicon, trained on blind-written labelled reviews; polarity read on the clause that names the aspect',
  trained_on: { files: FILES, rows: rows.length },
  threshold: THRESHOLD,
  detect,
  polarity,
  review,
});
writeFileSync(new URL('../src/core/insights/model.json', import.meta.url), `${JSON.stringify(model.toFile({ files: FILES, rows: rows.length }))}\n`);
const size = (m: LinearJson) => Object.keys(m.weights).length;
console.log(`trained on ${rows.length} rows from ${FILES.join(', ')}: ${size(detect)} detection, ${size(polarity)} polarity, ${size(review)} review features; ${polarityExamples.length} aspect judgements`);
