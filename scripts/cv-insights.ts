/**
 * Leave-one-writer-out cross-validation of the aspect model: for each training file, a model
 * trained on the others is scored on it; and one trained on all of them is scored on
 * eval/absa-test-b.tsv. How training choices are made (the dev set is never looked at here).
 * Usage: npm run cv:insights
 */
import { readCorpus, type Row } from './lib/absa-corpus.js';
import { trainModel, SETTINGS, type Settings } from './lib/absa-model.js';
import { score, scorer, type Figures } from './lib/absa-score.js';
import { TRAINING_FILES } from './lib/absa-files.js';

const path = (p: string) => new URL(`../${p}`, import.meta.url).pathname;
const sets = TRAINING_FILES.map((f) => ({ name: f, rows: readCorpus(path(f)) }));
const testB = readCorpus(path('eval/absa-test-b.tsv'));

/** Settings from the command line: `-- epochs=30 l2=0.002`. */
const settings: Settings = { ...SETTINGS };
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.split('=');
  if (k && v && k in settings) (settings as unknown as Record<string, number>)[k] = Number(v);
}

const folds: { name: string; train: Row[]; test: Row[] }[] = sets.map((held) => ({
  name: `held out ${held.name}`,
  train: sets.filter((s) => s !== held).flatMap((s) => s.rows),
  test: held.rows,
}));
folds.push({ name: 'all -> eval/absa-test-b.tsv', train: sets.flatMap((s) => s.rows), test: testB });

const results: Record<string, Figures> = {};
for (const f of folds) results[f.name] = score(scorer(trainModel(f.train, settings).model), f.test, true).figures;
const keys = ['aspect_f1', 'polarity_accuracy', 'review_polarity'] as const;
const mean = Object.fromEntries(keys.map((k) => [k, Math.round((Object.values(results).reduce((s, r) => s + (r[k] ?? 0), 0) / folds.length) * 1000) / 1000]));
console.log(JSON.stringify(settings));
console.table(results);
console.log(`mean over folds: ${JSON.stringify(mean)}`);
