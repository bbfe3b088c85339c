/**
 * Scores the insights analyser, through the same path /insights.json takes (ReviewAnalyser), on
 * each labelled set apart: the in-house ones (eval/insights-sentences.tsv, written with the
 * lexicon; eval/absa-test-b.tsv, blind-written and held out of training) and the blind dev set
 * at ../shared/eval/absa-dev.tsv (read at run time, never copied). Prints aspect P/R/F1, aspect
 * polarity accuracy, 3-way review polarity accuracy and a per-aspect table for each.
 *
 * Ratchet: fails when a dev or test-b figure falls below the one recorded in
 * src/core/insights/measured.json; `-- --record` writes the current figures there (and so into
 * the `model` line of /insights.json). `-- --errors` lists every miss.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ReviewAnalyser } from '../src/core/insights/per-review.js';
import type { Business } from '../src/core/schema/business.js';
import type { Review } from '../src/core/schema/review.js';
import { CORPUS_ASPECTS, corpusExists, readCorpus, type Pol, type Row } from './lib/absa-corpus.js';

const root = new URL('../', import.meta.url);
const path = (p: string) => new URL(p, root).pathname;
const DEV = path('../shared/eval/absa-dev.tsv');
const MEASURED = path('src/core/insights/measured.json');
const TARGETS = { aspect_f1: 0.9, polarity_accuracy: 0.9, review_polarity: 0.85 };
const showErrors = process.argv.includes('--errors');
const record = process.argv.includes('--record');

/** Taxonomy ids in the corpus's scheme: customer service is part of its professionalism. */
const TO_CORPUS: Record<string, string> = { quality_of_work: 'quality', technical_knowledge: 'knowledge', customer_service: 'professionalism' };

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

const business = { name: 'Evaluation', service_areas: [], services: [], technicians: [] } as unknown as Business;
const analyser = new ReviewAnalyser(business);

interface Figures {
  aspect_precision: number;
  aspect_recall: number;
  aspect_f1: number;
  polarity_accuracy: number;
  review_polarity: number | null;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const f1Of = (p: number, r: number) => (p + r ? (2 * p * r) / (p + r) : 0);

function evaluate(name: string, rows: readonly Row[], withStars: boolean): Figures {
  let tp = 0, fp = 0, fn = 0, polRight = 0, revRight = 0;
  const per = new Map<string, { tp: number; fp: number; fn: number; pol: number }>(CORPUS_ASPECTS.map((a) => [a, { tp: 0, fp: 0, fn: 0, pol: 0 }]));
  const errors: string[] = [];
  const kinds = { missed: 0, extra: 0, polarity: 0, review: 0 };
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
        if (row.aspects.get(id) === pol) {
          polRight++;
          if (e) e.pol++;
        } else {
          kinds.polarity++;
          errors.push(`polarity ${id}: expected ${row.aspects.get(id)}, got ${pol} | ${row.text}`);
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
  console.log(`\n== ${name}: ${rows.length} texts, ${tp + fn} labelled aspects`);
  console.table(figures);
  const table: Record<string, Record<string, string | number>> = {};
  for (const [id, e] of per) {
    const p = e.tp / (e.tp + e.fp || 1);
    const r = e.tp / (e.tp + e.fn || 1);
    table[id] = { labelled: e.tp + e.fn, found: e.tp + e.fp, precision: r3(p), recall: r3(r), f1: r3(f1Of(p, r)), polarity: e.tp ? r3(e.pol / e.tp) : '-' };
  }
  console.table(table);
  console.log(`misses: ${kinds.missed} aspects missed, ${kinds.extra} found but not labelled, ${kinds.polarity} wrong polarity${withStars ? `, ${kinds.review} wrong review polarity` : ''}`);
  if (showErrors) console.log(errors.join('\n'));
  return figures;
}

evaluate('in-house sentences (eval/insights-sentences.tsv, written with the lexicon)', readInHouse(path('eval/insights-sentences.tsv')), false);
const testB = evaluate('in-house held-out set (eval/absa-test-b.tsv, blind-written, not trained on)', readCorpus(path('eval/absa-test-b.tsv')), true);
let dev: Figures | null = null;
if (corpusExists(DEV)) dev = evaluate('blind dev set (../shared/eval/absa-dev.tsv)', readCorpus(DEV), true);
else console.log(`\n== blind dev set: ${DEV} is absent; skipped`);

const keys = ['aspect_f1', 'polarity_accuracy', 'review_polarity'] as const;
if (dev) {
  const met = keys.every((k) => (dev[k] ?? 0) >= TARGETS[k]);
  console.log(`\ndev targets (aspect F1 >= ${TARGETS.aspect_f1}, polarity accuracy >= ${TARGETS.polarity_accuracy}, review polarity >= ${TARGETS.review_polarity}): ${met ? 'met' : 'not met'}`);
}

type Measured = { dev: Figures | null; test_b: Figures | null };
const last = JSON.parse(readFileSync(MEASURED, 'utf8')) as Measured;
if (record) {
  const next: Measured = { dev: dev ?? last.dev, test_b: testB };
  writeFileSync(MEASURED, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`recorded in ${MEASURED}`);
} else {
  const falls: string[] = [];
  const check = (set: string, now: Figures | null, before: Figures | null) => {
    if (!now || !before) return;
    for (const k of [...keys, 'aspect_precision', 'aspect_recall'] as const) {
      const b = before[k];
      const n = now[k];
      if (b !== null && n !== null && n < b) falls.push(`${set} ${k} ${n} < recorded ${b}`);
    }
  };
  check('dev', dev, last.dev);
  check('test-b', testB, last.test_b);
  if (falls.length) {
    console.log(`\nbelow the recorded figures (src/core/insights/measured.json):\n  ${falls.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log('\nno figure below the recorded ones (src/core/insights/measured.json)');
}
