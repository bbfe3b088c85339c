/**
 * Leave-one-writer-out cross-validation of the aspect model: for each training file, a model
 * trained on the others is scored on it; and one trained on all of them is scored on
 * eval/absa-test-b.tsv. How training choices are made (the dev set is never looked at here).
 * Usage: npm run cv:insights [-- epochs=30 l2=0.002 perAspect=1]
 */
import { CORPUS_ASPECTS, readCorpus, type Row } from './lib/absa-corpus.js';
import { TRAINING_FILES } from './lib/absa-files.js';
import { chooseThresholds, trainModel, SETTINGS, type Settings } from './lib/absa-model.js';
import { score, scorer, type Figures } from './lib/absa-score.js';

const path = (p: string) => new URL(`../${p}`, import.meta.url).pathname;
const sets = TRAINING_FILES.map((f) => ({ name: f, rows: readCorpus(path(f)) }));
const testB = readCorpus(path('eval/absa-test-b.tsv'));

const settings: Settings = { ...SETTINGS };
let perAspect = false;
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.split('=');
  if (k === 'perAspect') perAspect = v === '1';
  else if (k && v && k in settings) (settings as unknown as Record<string, number>)[k] = Number(v);
}

const folds: { name: string; train: Row[][]; test: Row[] }[] = sets.map((held) => ({
  name: `held out ${held.name}`,
  train: sets.filter((s) => s !== held).map((s) => s.rows),
  test: held.rows,
}));
folds.push({ name: 'all -> eval/absa-test-b.tsv', train: sets.map((s) => s.rows), test: testB });

const results: Record<string, Figures> = {};
for (const f of folds) {
  let model = trainModel(f.train.flat(), settings).model;
  // Per-aspect thresholds chosen inside the fold, across its own writers only (needs two or more).
  if (perAspect && f.train.length >= 2) {
    const { thresholds } = chooseThresholds(f.train, settings);
    console.log(`${f.name}: thresholds ${CORPUS_ASPECTS.map((a, k) => `${a} ${thresholds[k]}`).join(', ')}`);
    model = model.withThresholds(thresholds);
  }
  results[f.name] = score(scorer(model), f.test, true).figures;
}
const keys = ['aspect_f1', 'polarity_accuracy', 'review_polarity'] as const;
console.log(JSON.stringify({ ...settings, perAspect }));
console.table(results);
const mean = Object.fromEntries(keys.map((k) => [k, Math.round((Object.values(results).reduce((s, r) => s + (r[k] ?? 0), 0) / folds.length) * 1000) / 1000]));
console.log(`mean over folds: ${JSON.stringify(mean)}`);
