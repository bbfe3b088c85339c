/**
 * Scores the insights analyser, through the same path /insights.json takes (ReviewAnalyser), on
 * each labelled set apart: the in-house ones (eval/insights-sentences.tsv, written with the
 * lexicon; eval/absa-test-b.tsv, eval/absa-stars.tsv, eval/absa-short.tsv, eval/absa-guided.tsv and eval/absa-guided-b.tsv, blind-written and held out of training) and the blind dev set
 * at ../shared/eval/absa-dev.tsv (read at run time, never copied). Prints aspect P/R/F1, aspect
 * polarity accuracy, 3-way review polarity accuracy and a per-aspect table for each, and, for a
 * set with stars, aspect polarity on the judgements whose words go against the stars.
 *
 * Ratchet: fails when a dev, test-b, stars-set, short-set, guided-set or second guided-set figure falls below the one recorded in
 * src/core/insights/measured.json; `-- --record` writes the current figures there (and so into
 * the `model` line of /insights.json). `-- --errors` lists every miss. ABSA_DEV=/nonexistent and
 * ABSA_GUIDED_B=/nonexistent hide the dev set and the second guided set (skipped, and `--record` keeps their figures).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { corpusExists, readCorpus, type Pol, type Row } from './lib/absa-corpus.js';
import { score, scorer, TO_CORPUS, type Figures } from './lib/absa-score.js';

const root = new URL('../', import.meta.url);
const path = (p: string) => new URL(p, root).pathname;
/** The dev set beside the repo; ABSA_DEV names it elsewhere (a git worktree's ../shared is not the main checkout's). */
const DEV = process.env['ABSA_DEV'] ?? path('../shared/eval/absa-dev.tsv');
/** The second guided set, on which no choice was made up to 2.10.0: ABSA_GUIDED_B=/nonexistent hides it while a choice is made, as ABSA_DEV hides the dev set. */
const GUIDED_B = process.env['ABSA_GUIDED_B'] ?? path('eval/absa-guided-b.tsv');
const MEASURED = path('src/core/insights/measured.json');
const TARGETS = { aspect_f1: 0.9, polarity_accuracy: 0.9, review_polarity: 0.85 };
const showErrors = process.argv.includes('--errors');
const record = process.argv.includes('--record');

/** The older in-house file: "labels<TAB>sentence" with our ids and +/-/0; no review polarity. */
function readInHouse(file: string): Row[] {
  const SIGN: Record<string, Pol> = { '+': 'positive', '-': 'negative', '0': 'neutral' };
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [labels, text] = l.split('\t') as [string, string];
      const aspects = new Map<string, Pol>();
      if (labels !== 'none') for (const part of labels.split(',')) {
        const [id, sign] = part.split(':') as [string, string];
        aspects.set(TO_CORPUS[id] ?? id, SIGN[sign]!);
      }
      return { text: text.trim(), stars: 0, overall: 'neutral' as Pol, aspects };
    });
}

const analyser = scorer();

function evaluate(name: string, rows: readonly Row[], withStars: boolean): Figures {
  const s = score(analyser, rows, withStars);
  const { missed, extra, polarity, review } = s.kinds;
  const labelled = Object.values(s.table).reduce((n, e) => n + Number(e['labelled']), 0);
  console.log(`\n== ${name}: ${rows.length} texts, ${labelled} labelled aspects`);
  console.table(s.figures);
  console.table(s.table);
  console.log(`misses: ${missed} aspects missed, ${extra} found but not labelled, ${polarity} wrong polarity${withStars ? `, ${review} wrong review polarity` : ''}`);
  const { right, of } = s.againstStars;
  if (of) console.log(`aspect polarity where the words go against the stars (a complaint at 4-5 stars, praise at 1-2): right on ${right} of the ${of} such judgements found = ${(right / of).toFixed(3)}`);
  if (showErrors) console.log(s.errors.join('\n'));
  return s.figures;
}

/** A set that can be hidden (its variable pointed nowhere): scored when its file is there, otherwise said to be skipped. */
function evaluateIfThere(label: string, name: string, file: string): Figures | null {
  if (corpusExists(file)) return evaluate(name, readCorpus(file), true);
  console.log(`\n== ${label}: ${file} is absent; skipped`);
  return null;
}

evaluate('in-house sentences (eval/insights-sentences.tsv, written with the lexicon)', readInHouse(path('eval/insights-sentences.tsv')), false);
const testB = evaluate('in-house held-out set (eval/absa-test-b.tsv, blind-written, not trained on)', readCorpus(path('eval/absa-test-b.tsv')), true);
const stars = evaluate('in-house stars-against-words set (eval/absa-stars.tsv, blind-written, not trained on; most judgements go against the stars)', readCorpus(path('eval/absa-stars.tsv')), true);
const short = evaluate('in-house short-sentence set (eval/absa-short.tsv, blind-written, not trained on; 2-8 words, most judgements against the stars)', readCorpus(path('eval/absa-short.tsv')), true);
const guided = evaluate(
  "in-house guided set (eval/absa-guided.tsv, blind-written to a guide of the dev set's labelling conventions, not trained on; the training's guided files follow the same guide)",
  readCorpus(path('eval/absa-guided.tsv')),
  true,
);
const guidedB = evaluateIfThere(
  'second guided set',
  'in-house second guided set (eval/absa-guided-b.tsv, blind-written to the same guide by six more writers after analyser 2.10.0 was chosen; never trained on, no choice up to 2.10.0 made on it)',
  GUIDED_B,
);
const dev = evaluateIfThere('blind dev set', 'blind dev set (../shared/eval/absa-dev.tsv)', DEV);

const keys = ['aspect_f1', 'polarity_accuracy', 'review_polarity'] as const;
if (dev) {
  const met = keys.every((k) => (dev[k] ?? 0) >= TARGETS[k]);
  console.log(`\ndev targets (aspect F1 >= ${TARGETS.aspect_f1}, polarity accuracy >= ${TARGETS.polarity_accuracy}, review polarity >= ${TARGETS.review_polarity}): ${met ? 'met' : 'not met'}`);
}

type Measured = { dev: Figures | null; test_b: Figures | null; stars: Figures | null; short: Figures | null; guided: Figures | null; guided_b: Figures | null };
const last = JSON.parse(readFileSync(MEASURED, 'utf8')) as Measured;
if (record) {
  const next: Measured = { dev: dev ?? last.dev, test_b: testB, stars, short, guided, guided_b: guidedB ?? last.guided_b };
  writeFileSync(MEASURED, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`recorded in ${MEASURED}`);
} else {
  const falls: string[] = [];
  const check = (set: string, now: Figures | null, before: Partial<Figures> | null) => {
    if (!now) return;
    if (!before) {
      falls.push(`${set}: nothing recorded (npm run eval:insights -- --record)`);
      return;
    }
    for (const k of [...keys, 'aspect_precision', 'aspect_recall'] as const) {
      const b = before[k];
      const n = now[k];
      // A figure missing from the file (not null: measured as nothing) is a fall too, not a pass.
      if (b === undefined) falls.push(`${set} ${k}: nothing recorded`);
      else if (b !== null && n !== null && n < b) falls.push(`${set} ${k} ${n} < recorded ${b}`);
    }
  };
  check('dev', dev, last.dev ?? null);
  check('test-b', testB, last.test_b ?? null);
  check('stars', stars, last.stars ?? null);
  check('short', short, last.short ?? null);
  check('guided', guided, last.guided ?? null);
  check('guided-b', guidedB, last.guided_b ?? null);
  if (falls.length) {
    console.log(`\nbelow the recorded figures (src/core/insights/measured.json):\n  ${falls.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log('\nno figure below the recorded ones (src/core/insights/measured.json)');
}
