// The training behind model.json: an example learnt several times an epoch, what counts towards a feature's minimum, and the guided rows' weight and folds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { train, type Example, type TrainOptions } from '../src/core/insights/linear.js';
import type { Row } from '../scripts/lib/absa-corpus.js';
import { GUIDED_FOLDS, GUIDED_WEIGHT, guidedFolds } from '../scripts/lib/absa-files.js';
import { SETTINGS, trainModel } from '../scripts/lib/absa-model.js';

const options = (minCount: number): TrainOptions => ({ kind: 'logistic', epochs: 6, rate: 0.2, l2: 0, seed: 7, minCount, prune: 0, average: true });

const praise: Example = { features: ['bias', 'great', 'once-only'], target: [1] };
const complaint: Example = { features: ['bias', 'late'], target: [0] };
const more: Example[] = [
  { features: ['bias', 'great', 'tidy'], target: [1] },
  { features: ['bias', 'late', 'tidy'], target: [0] },
];

describe('linear training: repeated examples', () => {
  it('an example repeated is learnt as if listed that many times', () => {
    const repeated = train(['aspect'], [{ ...praise, repeat: 3 }, complaint, ...more], options(1));
    const listed = train(['aspect'], [praise, praise, praise, complaint, ...more], options(1));
    assert.deepEqual(repeated, listed);
    const once = train(['aspect'], [praise, complaint, ...more], options(1));
    assert.ok(repeated.weights.great![0]! > once.weights.great![0]!, 'learnt more often, its words weigh more');
  });

  it("counts once towards a feature's minimum count, however often it is learnt", () => {
    const repeated = train(['aspect'], [{ ...praise, repeat: 3 }, complaint, ...more], options(2));
    assert.equal(repeated.weights['once-only'], undefined, 'a word of one example is not a feature');
    assert.ok(repeated.weights.great, 'a word of two examples is');
    // Listing the example again is two examples: the word passes the minimum.
    assert.ok(train(['aspect'], [praise, praise, complaint, ...more], options(2)).weights['once-only']);
  });

  it('is deterministic for a seed', () => {
    const a = train(['aspect'], [{ ...praise, repeat: 2 }, complaint, ...more], options(1));
    assert.deepEqual(train(['aspect'], [{ ...praise, repeat: 2 }, complaint, ...more], options(1)), a);
    assert.notDeepEqual(train(['aspect'], [{ ...praise, repeat: 2 }, complaint, ...more], { ...options(1), seed: 8 }), a);
  });
});

describe('aspect model training: the guided rows', () => {
  const rows: Row[] = [
    { text: 'The tech showed up two hours late.', stars: 2, overall: 'negative', aspects: new Map([['punctuality', 'negative']]) },
    { text: 'Fair price and a tidy job.', stars: 5, overall: 'positive', aspects: new Map([['pricing', 'positive'], ['cleanliness', 'positive']]) },
    { text: 'He explained every step of the repair.', stars: 5, overall: 'positive', aspects: new Map([['communication', 'positive']]) },
    { text: 'The office never called back about the warranty.', stars: 1, overall: 'negative', aspects: new Map([['warranty', 'negative']]) },
  ];
  // starsDrop 0: listed rows would draw the seeded stars-drop three times where a weighted row draws once.
  const settings = { ...SETTINGS, epochs: 4, minCount: 1, starsDrop: 0 };
  const file = (trained: ReturnType<typeof trainModel>) => trained.model.toFile({ files: [], rows: 0 });

  it('a weighted row trains every part as if it were listed that many times', () => {
    const guided = rows.slice(2);
    const weighted = trainModel([...rows.slice(0, 2), ...guided.map((r) => ({ ...r, weight: 3 }))], settings);
    // Each row three times in a row, where a repeated example stands in the shuffled order.
    const listed = trainModel([...rows.slice(0, 2), ...guided.flatMap((r) => [r, r, r])], settings);
    assert.deepEqual(file(weighted), file(listed));
    assert.notDeepEqual(file(weighted), file(trainModel(rows, settings)));
  });

  it('guidedFolds puts each writer in one fold, each row once, weighted GUIDED_WEIGHT', () => {
    const writers = [rows.slice(0, 1), rows.slice(1, 2), rows.slice(2, 3), rows.slice(3)];
    const folds = guidedFolds(writers);
    assert.equal(folds.length, GUIDED_FOLDS);
    assert.deepEqual(folds.flat().map((r) => r.text).sort(), rows.map((r) => r.text).sort());
    assert.ok(folds.flat().every((r) => r.weight === GUIDED_WEIGHT));
    assert.deepEqual(folds[0]!.map((r) => r.text), [rows[0]!.text, rows[2]!.text]);
  });

  it('refuses a repeat that is not a whole number from 1', () => {
    for (const repeat of [0, -1, 2.5, Number.NaN]) assert.throws(() => train(['aspect'], [{ ...praise, repeat }, complaint], options(1)), /repeat must be a whole number from 1/);
  });
});
