/**
 * Trains the aspect model (src/core/insights/model.json) from the blind-written corpus in eval/
 * (absa-train-*.tsv, one file per writer; the writers who wrote against the stars on purpose train
 * detection and aspect polarity without their stars, and not the review part; absa-guided-train-*.tsv,
 * written to the guide of the dev set's labelling conventions): per-aspect logistic detection, a softmax polarity
 * model read on the clause that speaks of the aspect, and a softmax overall-polarity model over a
 * review's sentences and stars. The features are the analyser's own view of a text (words,
 * stems, pairs, negation, VADER valence, the domain lexicon's reading). Each aspect's threshold
 * is chosen over folds of the guided writers (a model trained on every other row scores each fold
 * at every threshold of a grid; about 20 minutes), or given (`-- thresholds=0.3,0.25,...`,
 * nine values in the corpus's aspect order, those an earlier choice gave: one final model, minutes).
 * Seeded: the same corpus (and thresholds) gives the same file.
 */
import { writeFileSync } from 'node:fs';
import { CORPUS_ASPECTS, readCorpus } from './lib/absa-corpus.js';
import { GUIDED_FILES, GUIDED_FOLDS, GUIDED_WEIGHT, guidedFolds, STARLESS_FILES, TRAINING_FILES } from './lib/absa-files.js';
import { chooseThresholds, methodOf, trainModel } from './lib/absa-model.js';

function givenThresholds(): number[] | undefined {
  const args = process.argv.slice(2);
  // A misspelt argument would otherwise start the long choice unnoticed.
  const unknown = args.find((a) => !a.startsWith('thresholds='));
  if (unknown !== undefined || args.length > 1) throw new Error(`train:insights takes at most one argument, thresholds=a,b,... (nine values); not ${unknown ?? args.join(' ')}`);
  const arg = args[0];
  if (arg === undefined) return undefined;
  const values = arg.slice('thresholds='.length).split(',').map(Number);
  if (values.length !== CORPUS_ASPECTS.length || values.some((v) => !(v > 0 && v < 1))) {
    throw new Error(`thresholds= takes ${CORPUS_ASPECTS.length} numbers between 0 and 1 (${CORPUS_ASPECTS.join(', ')}), not ${arg}`);
  }
  return values;
}

const given = givenThresholds();
const path = (f: string) => new URL(`../${f}`, import.meta.url).pathname;
const writers = TRAINING_FILES.map((f) => readCorpus(path(f)));
const starless = STARLESS_FILES.flatMap((f) => readCorpus(path(f), true));
const guided = guidedFolds(GUIDED_FILES.map((f) => readCorpus(path(f))));
/** Every row but the guided writers': what each model of the threshold choice trains on beside the other fold. */
const unguided = [...writers.flat(), ...starless];
// Rows in the order cv:insights trains its folds (writers, starless, guided); its `perAspect=1` still chooses thresholds across the writers, the method before 2.9.0.
const rows = [...unguided, ...guided.flat()];
const FILES = [...TRAINING_FILES, ...STARLESS_FILES, ...GUIDED_FILES];
const chosen = given ? undefined : chooseThresholds(guided, undefined, unguided);
const thresholds = given ?? chosen!.thresholds;
console.log(`thresholds (${chosen ? `over ${GUIDED_FOLDS} folds of the guided writers, aspect F1 ${chosen.f1}` : 'as given'}): ${CORPUS_ASPECTS.map((a, k) => `${a} ${thresholds[k]}`).join(', ')}`);
const trained = trainModel(rows);
const model = trained.model.withThresholds(thresholds);
const file = `${JSON.stringify({ ...model.toFile({ files: FILES, rows: rows.length }), method: methodOf(TRAINING_FILES.length, given ? 'given' : 'chosen', STARLESS_FILES.length, model.secondary, GUIDED_FILES.length, GUIDED_WEIGHT) })}\n`;
writeFileSync(new URL('../src/core/insights/model.json', import.meta.url), file);
const { sizes } = trained;
console.log(
  `trained on ${rows.length} rows from ${FILES.join(', ')}: ${sizes.detect} detection, ${sizes.polarity} polarity, ${sizes.review} review features; ${sizes.judgements} aspect judgements; model.json ${(file.length / 1024).toFixed(0)} KiB`,
);
