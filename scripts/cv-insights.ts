/** Leave-one-writer-out cross-validation of the aspect model (`npm run cv:insights`).
 * For each training file, a model trained on the others is scored on it; and one trained on all of them is scored on
 * eval/absa-test-b.tsv. How training choices are made (the dev set is never looked at here).
 * Usage: npm run cv:insights [-- epochs=30 l2=0.002 starsDrop=0.5 perAspect=1 add=e,f drop=a only=a,b starless=none guided=none backed=1,0.8 secondary=0,0.5,1 thresholds=0.35,0.25,... also=stars,short]
 * (`add`: more writers' files as folds, by letter; `drop`: leave some out; `starless`: the writers who
 * wrote against the stars on purpose, in every fold's training without their stars and not in the
 * review part, held out of none (by default those the model is trained with, STARLESS_FILES;
 * `none` for no such writers); `guided=none`: leave out the guided writers' rows, which otherwise train
 * every fold as they train the model (GUIDED_FILES, GUIDED_WEIGHT times) and are held out of none; `only`: hold out only
 * these writers (every file still trains the other folds), to compare with an earlier run's
 * folds in less time; `backed` and `secondary`, which act at inference, score the same models at each
 * value given (every pair of them; with `perAspect=1`, which chooses thresholds under them, one value each;
 * `perAspect=1` chooses them across the fold's writers, the method before 2.9.0, not on the guided folds as train:insights does);
 * `thresholds`: nine per-aspect thresholds in the corpus's aspect order every fold is scored at, instead of
 * `threshold` for all (the shipped model's, to choose an inference setting for it: they were chosen across
 * these writers, so each held-out writer had a say in them; fair between settings, a little kind to all);
 * `also`: eval files, by name, the model trained on every writer is scored on too, beside test-b.)
 */
import { CORPUS_ASPECTS, readCorpus, type Row } from './lib/absa-corpus.js';
import { GUIDED_FILES, guidedFolds, STARLESS_FILES, TRAINING_FILES, writerFile } from './lib/absa-files.js';
import { chooseThresholds, trainModel, SETTINGS, type Settings } from './lib/absa-model.js';
import { score, scorer, type Figures } from './lib/absa-score.js';

const path = (p: string) => new URL(`../${p}`, import.meta.url).pathname;
/** An in-repo eval file by name ("stars", "short"); never the blind dev set, which choices here must not see. */
function evalFile(name: string): string {
  if (!/^[a-z][a-z-]*$/.test(name) || name.includes('dev')) throw new Error(`also=${name}: name an in-repo eval file (eval/absa-<name>.tsv), not a path or the dev set`);
  return `eval/absa-${name}.tsv`;
}
const settings: Settings = { ...SETTINGS };
let perAspect = false;
let files = [...TRAINING_FILES];
let starlessFiles = [...STARLESS_FILES];
let withGuided = true;
let backed = [settings.backed];
let secondary = [settings.secondary];
let thresholds: number[] | null = null;
let only: string[] | null = null;
let also: string[] = [];
/** A comma-separated list of numbers for `arg`, each one `ok`; else the argument is refused as written (a typo would start an hour's run). */
function numbers(arg: string, v: string, ok: (x: number) => boolean, what: string): number[] {
  const xs = v.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
  if (!xs.every((x) => Number.isFinite(x) && ok(x))) throw new Error(`${arg}: takes ${what}, separated by commas`);
  return xs;
}
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.split('=');
  if (k === 'perAspect') perAspect = v === '1';
  else if (k === 'add' && v) files.push(...v.split(',').map(writerFile));
  else if (k === 'backed' && v) backed = numbers(arg, v, (x) => x > 0 && x <= 1, 'shares of the threshold above 0, at most 1');
  else if (k === 'secondary' && v) secondary = numbers(arg, v, (x) => x >= 0, 'margins in logits, 0 or more');
  else if (k === 'thresholds' && v) thresholds = numbers(arg, v, (x) => x > 0 && x < 1, `${CORPUS_ASPECTS.length} numbers between 0 and 1 (${CORPUS_ASPECTS.join(', ')})`);
  else if (k === 'only' && v) only = v.split(',').map(writerFile);
  else if (k === 'also' && v) also = v.split(',').map(evalFile);
  else if (k === 'guided' && v === 'none') withGuided = false;
  else if (k === 'starless' && v) starlessFiles = v === 'none' ? [] : v.split(',').map(writerFile);
  else if (k === 'drop' && v) files = files.filter((f) => !v.split(',').map(writerFile).includes(f));
  else if (k && v && k in settings) (settings as unknown as Record<string, number>)[k] = Number(v);
  else throw new Error(`unknown argument ${arg}`);
}
if (thresholds && thresholds.length !== CORPUS_ASPECTS.length) {
  throw new Error(`thresholds=${thresholds.join(',')}: takes ${CORPUS_ASPECTS.length} numbers, one per aspect (${CORPUS_ASPECTS.join(', ')}), not ${thresholds.length}`);
}
const given = (name: string) => process.argv.slice(2).some((a) => a.startsWith(`${name}=`));
if (thresholds && perAspect) throw new Error('thresholds= and perAspect=1 both set the thresholds; give one');
if (thresholds && given('threshold')) throw new Error('thresholds= and threshold= both set the thresholds; give one');
// perAspect chooses each fold's thresholds under one backed share and one margin: those the folds are then scored at.
if (perAspect && (backed.length > 1 || secondary.length > 1)) throw new Error('perAspect=1 chooses thresholds under one backed= and one secondary= value; give one of each');
settings.backed = backed[0]!;
settings.secondary = secondary[0]!;
// A writer both held out and in every fold's training would be scored on its own rows.
const both = files.filter((f) => starlessFiles.includes(f));
if (both.length) throw new Error(`${both.join(', ')}: both a fold and starless; leave it out of one (starless=none, or starless= naming the others)`);
const sets = files.map((f) => ({ name: f, rows: readCorpus(path(f)) }));
const testB = readCorpus(path('eval/absa-test-b.tsv'));
// Starless writers train every fold and are held out of none (their stars are meant to mislead).
const starless = starlessFiles.flatMap((f) => readCorpus(path(f), true));
// The guided writers' rows train every fold, after the starless ones, as they train the model.
const always = [...starless, ...(withGuided ? guidedFolds(GUIDED_FILES.map((f) => readCorpus(path(f)))).flat() : [])];

const heldOut = only ? sets.filter((s) => only!.includes(s.name)) : sets;
const folds: { name: string; train: Row[][]; test: Row[] }[] = heldOut.map((held) => ({
  name: `held out ${held.name}`,
  train: sets.filter((s) => s !== held).map((s) => s.rows),
  test: held.rows,
}));
folds.push({ name: 'all -> eval/absa-test-b.tsv', train: sets.map((s) => s.rows), test: testB });
const extra = also.map((f) => ({ name: `all -> ${f}`, rows: readCorpus(path(f)) }));

const results = new Map(backed.flatMap((b) => secondary.map((d) => [`backed ${b}, secondary ${d}`, { backed: b, secondary: d, figures: {} as Record<string, Figures> }] as const)));
for (const f of folds) {
  let model = trainModel([...f.train.flat(), ...always], settings).model;
  if (thresholds) model = model.withThresholds(thresholds);
  // Per-aspect thresholds chosen inside the fold, across its own writers only (needs two or more).
  if (perAspect && f.train.length >= 2) {
    const chosen = chooseThresholds(f.train, settings, always).thresholds;
    console.log(`${f.name}: thresholds ${CORPUS_ASPECTS.map((a, k) => `${a} ${chosen[k]}`).join(', ')}`);
    model = model.withThresholds(chosen);
  }
  for (const [name, r] of results) {
    const analyser = scorer(model.withThresholds(model.thresholds, r.backed, r.secondary));
    r.figures[f.name] = score(analyser, f.test, true).figures;
    // The last fold's model is the one trained on every writer; the extra files are not folds.
    if (f !== folds.at(-1)) continue;
    for (const e of extra) {
      const s = score(analyser, e.rows, true);
      console.log(`${name}, ${e.name}: ${JSON.stringify(s.figures)}; against the stars ${s.againstStars.right}/${s.againstStars.of}`);
    }
  }
}
const keys = ['aspect_f1', 'polarity_accuracy', 'review_polarity'] as const;
for (const r of results.values()) {
  console.log(JSON.stringify({ ...settings, backed: r.backed, secondary: r.secondary, thresholds, perAspect, files, starless: starlessFiles, guided: withGuided }));
  console.table(r.figures);
  const mean = Object.fromEntries(keys.map((k) => [k, Math.round((Object.values(r.figures).reduce((s, x) => s + (x[k] ?? 0), 0) / folds.length) * 1000) / 1000]));
  console.log(`mean over folds: ${JSON.stringify(mean)}`);
}
