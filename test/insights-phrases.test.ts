/** Every phrase the insights document shows people is a real phrase: found in a review, not cut off on a function word. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { benchReviews } from '../bench/lib/dataset.js';
import { buildInsights } from '../src/core/insights/build.js';
import { tokenize } from '../src/core/insights/text.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import type { Insights } from '../src/core/schema/insights.js';
import type { Review } from '../src/core/schema/review.js';

/** Words a phrase cannot stop on without being cut mid-phrase (written here, apart from the analyser's own list). */
const DANGLING = new Set(
  'a an the my our your his her their its me us him them this that these those to of at by for with from into about as and or but if than so not no is was were be been are do does did has have had will would can could what which who when where how under above below beneath beyond during within between against toward towards upon via while until'.split(' '),
);

/** Every phrase a reader sees: top phrases, topic labels, quoted words in the summary and FAQ answers. */
function phrasesOf(doc: Insights): { where: string; phrase: string }[] {
  const out: { where: string; phrase: string }[] = [];
  const add = (where: string, ps: readonly string[]) => ps.forEach((phrase) => out.push({ where, phrase }));
  for (const a of doc.aspects) add(`aspect ${a.id}`, a.top_phrases);
  for (const t of doc.entities.technicians) add(`technician ${t.name}`, t.top_phrases);
  for (const s of doc.entities.services) add(`service ${s.id}`, s.top_phrases);
  for (const p of doc.entities.problems) add(`problem ${p.id}`, p.top_phrases);
  add('topics', doc.topics.map((t) => t.label));
  const quoted = (text: string) => [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  add('summary', quoted(doc.summary ?? ''));
  for (const f of doc.faq) add(`faq ${f.id}`, quoted(f.answer));
  for (const [id, r] of Object.entries(doc.per_review)) for (const a of r.aspects) add(`review ${id} ${a.aspect}`, a.phrases);
  return out;
}

function check(doc: Insights, reviews: readonly Review[]): void {
  const corpus = ` ${reviews.map((r) => tokenize(r.text ?? '').join(' ')).join(' | ')} `;
  const seen = new Set<string>();
  for (const { where, phrase } of phrasesOf(doc)) {
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    const words = tokenize(phrase);
    assert.ok(words.length > 0, `${where}: empty phrase`);
    assert.ok(!DANGLING.has(words[words.length - 1]!), `${where}: "${phrase}" ends on a function word`);
    assert.ok(corpus.includes(` ${words.join(' ')} `), `${where}: "${phrase}" is not a run of words any review wrote`);
  }
  // The summary is plain sentences: each starts with a capital or a digit and ends with a full stop.
  for (const sentence of (doc.summary ?? '').split(/(?<=\.)\s+/)) assert.match(sentence, /^[A-Z0-9].*\.$/, sentence);
  if (doc.pull_quote) assert.ok(reviews.some((r) => r.text?.includes(doc.pull_quote!.text)), 'the pull quote is a sentence of a review');
}

describe('phrases people read', () => {
  it('the demo document shows only real, whole phrases', () => {
    const reviews = demoReviews();
    const doc = buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z');
    assert.ok(phrasesOf(doc).length > 50, 'the demo has phrases to check');
    check(doc, reviews);
  });

  it('so do 20,000 generated reviews', () => {
    const reviews = benchReviews(20_000);
    const doc = buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z');
    check(doc, reviews);
  });

  it('a cut phrase is caught: the check itself can fail', () => {
    const reviews = demoReviews(40);
    const doc = buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z');
    const broken = { ...doc, aspects: doc.aspects.map((a, i) => (i === 0 ? { ...a, top_phrases: ['ignored my'] } : a)) };
    assert.throws(() => check(broken, reviews), /ends on a function word/);
  });
});
