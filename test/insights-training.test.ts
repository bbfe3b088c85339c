// The linear training behind model.json: an example learnt several times an epoch, and what counts towards a feature's minimum.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { train, type Example, type TrainOptions } from '../src/core/insights/linear.js';

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
