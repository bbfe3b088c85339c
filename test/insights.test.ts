/** The insights: the aspect analyser's hard cases, the document built from reviews, its incremental build, and GET /insights.json. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { AspectAnalyser, type Polarity } from '../src/core/insights/analyser.js';
import { buildInsights } from '../src/core/insights/build.js';
import { AnalysisCache, ReviewAnalyser } from '../src/core/insights/per-review.js';
import { AspectModel } from '../src/core/insights/model.js';
import { splitClauses } from '../src/core/insights/text.js';
import clusters from '../src/core/insights/clusters.json' with { type: 'json' };
import { InsightsSchema, type Insights } from '../src/core/schema/insights.js';
import type { Business } from '../src/core/schema/business.js';
import type { Review } from '../src/core/schema/review.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { startTestService, type TestService } from './helpers.js';

const analyser = new AspectAnalyser();
function aspects(text: string, rating?: number): Record<string, Polarity> {
  const out: Record<string, Polarity> = {};
  for (const s of analyser.text(text, rating)) for (const a of s.aspects) out[a.aspect] = a.polarity;
  return out;
}

describe('aspect analyser: the hard cases, one by one', () => {
  // Each expected aspect must be found with its polarity; a case expecting none must find none.
  // Extra aspects the model adds are counted by npm run eval:insights, not asserted here.
  const cases: [string, Record<string, Polarity>][] = [
    // negation
    ['They were not on time.', { punctuality: 'negative' }],
    ['The price was not bad.', { pricing: 'positive' }],
    ["They didn't clean up.", { cleanliness: 'negative' }],
    ['We were not overcharged.', { pricing: 'positive' }],
    // contrast: the clause after "but" has the last word
    ['He was on time, but the price was way too high.', { punctuality: 'positive', pricing: 'negative' }],
    ['Pricey, but worth every penny.', { pricing: 'positive' }],
    ['The work was fine but communication was terrible.', { quality_of_work: 'positive', communication: 'negative' }],
    // domain phrases a general lexicon gets wrong
    ['The price was way too high.', { pricing: 'negative' }],
    ["The AC still doesn't work.", { quality_of_work: 'negative' }],
    ['They overcharged us.', { pricing: 'negative' }],
    ['He showed up late.', { punctuality: 'negative' }],
    ['Left no mess.', { cleanliness: 'positive' }],
    ['Still no heat.', { quality_of_work: 'negative' }],
    ['The same leak came back a week later.', { quality_of_work: 'negative' }],
    ['The office staff were rude.', { customer_service: 'negative' }],
    // no aspect at all
    ['Never again.', {}],
    ['We have a two-story house.', {}],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      const found = aspects(text);
      if (Object.keys(expected).length === 0) assert.deepEqual(found, {});
      for (const [id, polarity] of Object.entries(expected)) assert.equal(found[id], polarity, `${id} in ${JSON.stringify(found)}`);
    });
  }

  it('"never again" makes a sentence negative without naming an aspect', () => {
    assert.ok(analyser.sentence('Never again.').score < 0);
  });
  it('intensifiers strengthen and downtoners soften a judgement', () => {
    const plain = analyser.sentence('The price was reasonable.').aspects[0]!.score;
    assert.ok(analyser.sentence('The price was very reasonable.').aspects[0]!.score > plain);
    assert.ok(analyser.sentence('The price was slightly reasonable.').aspects[0]!.score < plain);
  });
  it('clear words beat the stars', () => {
    assert.equal(aspects('The price was reasonable.', 2).pricing, 'positive');
    assert.equal(aspects('They were on time.', 1).punctuality, 'positive');
    assert.equal(aspects("He wasn't rude at all.", 2).professionalism, 'positive');
    assert.equal(aspects('We were not overcharged.', 2).pricing, 'positive');
    assert.equal(aspects('The price was too high.', 5).pricing, 'negative');
    // Known misses, in docs/insights.md: 'The price was way too high.' and 'He was rude.' read as praise at 5 stars (the todo test below has 2.9.0's).
  });
  // Reported, not failing the run: since 2.9.0 plain price praise at 1 star and a plain complaint at 4 stars read the stars' way (docs/insights.md).
  it('clear words beat the stars at the ends of the scale too', { todo: 'known misses since analyser 2.9.0' }, () => {
    assert.equal(aspects('The price was reasonable.', 1).pricing, 'positive');
    assert.equal(aspects('Reasonably priced.', 1).pricing, 'positive');
    assert.equal(aspects('He was rude.', 4).professionalism, 'negative');
  });
  it('operator aspects from the business profile are detected', () => {
    const custom = new AspectAnalyser([{ id: 'parking', label: 'Parking', cues: ['parking', 'van'], positive: ['parked considerately'], negative: ['blocked our driveway'] }]);
    const found = custom.text('The van blocked our driveway for an hour.');
    assert.deepEqual(found[0]!.aspects.find((a) => a.aspect === 'parking'), { aspect: 'parking', polarity: 'negative', score: -1.5, phrases: ['blocked our driveway'] });
    assert.equal(new AspectAnalyser().text('The van blocked our driveway for an hour.')[0]!.aspects.find((a) => a.aspect === 'parking'), undefined, 'only where the profile adds it');
  });
});

describe('aspect analyser: the summed path reads as the feature strings do', () => {
  // The model reads summed rows (one per distinct word, built at first sight); training reads feature strings. Same verdicts, same scores.
  const summed = new AspectAnalyser();
  const strings = new AspectAnalyser([], undefined, false);
  /** Every labelled text in eval/ with its stars (3 for the older file, which has none). */
  const texts: [string, number][] = readdirSync(new URL('../eval/', import.meta.url))
    .filter((f) => f.endsWith('.tsv'))
    .flatMap((f) => {
      const lines = readFileSync(new URL(`../eval/${f}`, import.meta.url), 'utf8').split('\n').slice(1).filter((l) => l.trim() && !l.startsWith('#'));
      return lines.map((l): [string, number] => {
        const cols = l.split('\t');
        return f === 'insights-sentences.tsv' ? [cols[1]!, 3] : [cols[0]!, Number(cols[1])];
      });
    });

  it('on every in-repo labelled text', () => {
    assert.ok(texts.length > 9000, `${texts.length} texts`);
    let found = 0;
    for (const [text, stars] of texts) {
      const a = summed.review(text, stars);
      assert.deepEqual(a, strings.review(text, stars), text);
      found += a.sentences.reduce((n, s) => n + s.aspects.length, 0);
    }
    assert.ok(found > texts.length, `${found} aspects found`);
  });
  it('after its word sums were emptied (more distinct words than it keeps)', () => {
    // Words of the clustered vocabulary: each has features, so each takes a row until the rows run out.
    const vocabulary = clusters.fine.flatMap((list) => list.split(' ')).filter((w) => /^[a-z]+$/.test(w));
    assert.ok(vocabulary.length > 20_000);
    const known = texts.slice(0, 200);
    for (let i = 0; i * 10 < 20_000; i++) {
      const [text, stars] = known[i % known.length]!;
      const mixed = `${text} ${vocabulary.slice(i * 10, i * 10 + 10).join(' ')}, not ${vocabulary[i]}. ${text}`;
      assert.deepEqual(summed.review(mixed, stars), strings.review(mixed, stars), mixed);
    }
  });
  it('with an operator aspect', () => {
    const parking = [{ id: 'parking', label: 'Parking', cues: ['parking', 'van'], positive: ['parked considerately'], negative: ['blocked our driveway'] }];
    const text = 'The van blocked our driveway, but the price was fair and he was not rude at all.';
    assert.deepEqual(new AspectAnalyser(parking).review(text, 4), new AspectAnalyser(parking, undefined, false).review(text, 4));
  });
});

function review(n: number, rating: number, date: string, text: string | null): Review {
  return { id: `01K${String(n).padStart(23, '0')}`, author: `R${n}`, author_avatar_url: null, rating, date, text, source: 'google', source_url: null, owner_reply: null, verified: true, source_id: null };
}

describe('buildInsights', () => {
  const business: Business = {
    ...BUSINESS,
    custom_aspects: [{ id: 'parking', label: 'Parking', cues: ['parking'], positive: [], negative: ['blocked our driveway'] }],
  };
  const reviews: Review[] = [
    review(9, 5, '2026-06-09', 'Our tech, Sam, was on time and the price was fair. Al was great.'),
    review(8, 1, '2026-06-08', 'Sam showed up late and the AC still does not work. Never again.'),
    review(7, 5, '2026-06-07', 'Ask for Sam! Fixed our clogged drain in Springfield quickly and cleaned up.'),
    review(6, 2, '2026-06-06', 'Bea was rude and the van blocked our driveway. The parking was a mess.'),
    review(5, 5, '2026-06-05', null),
    review(4, 4, '2026-06-04', 'Beatrice explained everything, reasonable price for the AC repair.'),
    review(3, 3, '2026-06-03', 'Alberto knew exactly what was wrong, but the bill was way too high.'),
  ];
  const doc = buildInsights(business, reviews, '2026-06-10T00:00:00.000Z');

  it('validates against the published schema', () => {
    InsightsSchema.parse(doc);
    assert.equal(doc.review_count, 7);
    assert.deepEqual(doc.date_range, { earliest: '2026-06-03', latest: '2026-06-09' });
    assert.match(doc.model, /reviewcast-absa/);
  });
  it('is byte-identical for the same input', () => {
    assert.equal(JSON.stringify(buildInsights(business, reviews, doc.generated_at)), JSON.stringify(doc));
  });
  it('counts aspects per review with examples and phrases', () => {
    const pricing = doc.aspects.find((a) => a.id === 'pricing')!;
    assert.deepEqual([pricing.mention_count, pricing.positive_count, pricing.negative_count], [3, 2, 1]);
    assert.equal(pricing.positive_pct, 66.7);
    assert.deepEqual(pricing.example_review_ids, [reviews[0]!.id, reviews[5]!.id, reviews[6]!.id]);
    assert.ok(pricing.top_phrases.includes('way too high'));
    const parking = doc.aspects.find((a) => a.id === 'parking')!;
    assert.equal(parking.negative_count, 1);
    assert.equal(doc.aspects.length, 11, 'ten built-in aspects and the custom one');
  });
  it('finds roster technicians by name and alias, and names praised or blamed in a technician role', () => {
    const al = doc.entities.technicians.find((t) => t.name === 'Al')!;
    assert.deepEqual([al.mention_count, al.on_roster, al.average_rating], [2, true, 4]);
    const bea = doc.entities.technicians.find((t) => t.name === 'Bea')!;
    assert.equal(bea.mention_count, 2);
    assert.equal(bea.sentiment.negative, 1);
    const sam = doc.entities.technicians.find((t) => t.name === 'Sam')!;
    assert.deepEqual([sam.on_roster, sam.mention_count], [false, 2], 'Sam: "our tech, Sam" and "ask for Sam"');
  });
  it('finds services, problems and service areas', () => {
    const ac = doc.entities.services.find((s) => s.id === 'ac_repair')!;
    assert.equal(ac.mention_count, 2);
    assert.ok(doc.entities.problems.some((p) => p.id === 'clog' && p.mention_count === 1));
    assert.deepEqual(doc.entities.service_areas.find((a) => a.name === 'Springfield'), { name: 'Springfield', mention_count: 1, example_review_ids: [reviews[2]!.id] });
  });
  it('analyses every review, taking rating-only reviews from their stars', () => {
    assert.deepEqual(Object.keys(doc.per_review).sort(), reviews.map((r) => r.id).sort());
    assert.deepEqual(doc.per_review[reviews[4]!.id], { sentiment: 'positive', score: 1, basis: 'rating', aspects: [], technicians: [], services: [], problems: [] });
    const late = doc.per_review[reviews[1]!.id]!;
    assert.equal(late.sentiment, 'negative');
    assert.deepEqual(late.aspects.map((a) => [a.aspect, a.polarity]), [['punctuality', 'negative'], ['quality_of_work', 'negative']]);
  });
  it('quotes a real sentence, writes an honest summary and grounds every FAQ answer in existing reviews', () => {
    const quote = doc.pull_quote!;
    assert.ok(reviews.find((r) => r.id === quote.review_id)!.text!.includes(quote.text));
    assert.match(doc.summary!, /7 reviews averaging 3\.57 out of 5/);
    // Six aspects with one complaint each: none is called the most common.
    assert.match(doc.summary!, /No complaint stands out: cleanliness, parking, pricing and value, professionalism, and 2 more have 1 negative mention each\./);
    const ids = new Set(reviews.map((r) => r.id));
    assert.ok(doc.faq.length >= 2);
    for (const f of doc.faq) for (const id of f.review_ids) assert.ok(ids.has(id), `${f.id} cites ${id}`);
  });
  it('states the trend and the rule that decided it', () => {
    const old = Array.from({ length: 6 }, (_, i) => review(100 + i, 2, `2026-01-${String(10 + i).padStart(2, '0')}`, 'ok'));
    const recent = Array.from({ length: 6 }, (_, i) => review(200 + i, 5, `2026-04-${String(10 + i).padStart(2, '0')}`, 'ok'));
    assert.equal(buildInsights(business, [...recent, ...old], doc.generated_at).temporal.trend.direction, 'improving');
    const flipped = [...recent.map((r) => ({ ...r, rating: 1 })), ...old.map((r) => ({ ...r, rating: 4 }))];
    assert.equal(buildInsights(business, flipped, doc.generated_at).temporal.trend.direction, 'declining');
    assert.equal(doc.temporal.trend.direction, 'insufficient_data');
    assert.match(doc.temporal.trend.rule, /90 days/);
    assert.deepEqual(doc.temporal.monthly, [{ month: '2026-06', review_count: 7, average_rating: 3.57, sentiment_score: doc.temporal.monthly[0]!.sentiment_score }]);
  });
  it('re-analyses only reviews whose text or rating changed', () => {
    const cache = new AnalysisCache();
    buildInsights(business, reviews, doc.generated_at, cache);
    assert.equal(cache.misses, reviews.length);
    // A new text, a new rating on the same text, and two new texts naming an unlisted technician.
    const changed = reviews.map((r, i) =>
      i === 0 ? { ...r, text: 'Completely different now: rude.' } : i === 2 ? { ...r, rating: r.rating === 1 ? 2 : 1 } : i === 3 || i === 5 ? { ...r, text: `${r.text} Thanks to Gus, the repair was quick and the price was fair.` } : r,
    );
    const incremental = buildInsights(business, changed, doc.generated_at, cache);
    assert.equal(cache.misses, reviews.length + 4);
    assert.equal(cache.hits, reviews.length - 4);
    assert.equal(JSON.stringify(incremental), JSON.stringify(buildInsights(business, changed, doc.generated_at)), 'the same as analysing everything afresh');
    assert.ok(incremental.entities.technicians.some((t) => t.name === 'Gus'), 'Gus, in two reviews after the change');
  });
  it('counts a service area added to the profile in reviews it kept, and drops one taken out', () => {
    // The areas a text names are kept with its analysis: a profile that names others must not read the kept ones.
    const cache = new AnalysisCache();
    buildInsights(business, reviews, doc.generated_at, cache);
    const moved = { ...business, service_areas: ['Driveway'] };
    const again = buildInsights(moved, reviews, doc.generated_at, cache);
    assert.deepEqual(again.entities.service_areas, [{ name: 'Driveway', mention_count: 1, example_review_ids: [reviews[3]!.id] }], '"our driveway", not Springfield');
    assert.equal(JSON.stringify(again), JSON.stringify(buildInsights(moved, reviews, doc.generated_at)), 'the same as analysing everything afresh');
  });
  it('has no summary, quote or date range without reviews', () => {
    const empty = buildInsights(business, [], doc.generated_at);
    assert.deepEqual([empty.summary, empty.pull_quote, empty.date_range, empty.review_count], [null, null, null, 0]);
    InsightsSchema.parse(empty);
  });
});

describe('GET /insights.json', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
  });
  after(() => svc.close());

  it('serves the document with the reference top-level fields', async () => {
    const res = await fetch(`${svc.url}/insights.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const doc = (await res.json()) as Insights;
    assert.deepEqual(Object.keys(doc), [
      'version', 'generated_at', 'model', 'review_count', 'date_range', 'overall_sentiment', 'aspects', 'entities', 'topics', 'temporal', 'per_review', 'faq', 'summary', 'pull_quote',
    ]);
    InsightsSchema.parse(doc);
    assert.equal(doc.review_count, 8);
  });
  it('has ETag/304, HEAD and compression like the other datasets, and follows changes', async () => {
    const first = await fetch(`${svc.url}/insights.json`);
    const etag = first.headers.get('etag')!;
    assert.equal((await fetch(`${svc.url}/insights.json`, { headers: { 'if-none-match': etag } })).status, 304);
    const head = await fetch(`${svc.url}/insights.json`, { method: 'HEAD' });
    assert.equal(head.headers.get('etag'), etag);
    const br = await new Promise<string | undefined>((resolve, reject) =>
      request(`${svc.url}/insights.json`, { headers: { 'accept-encoding': 'br' } }, (res) => {
        res.resume();
        resolve(res.headers['content-encoding']);
      }).on('error', reject).end(),
    );
    assert.equal(br, 'br');
    await svc.store.importReviews({ reviews: [review(1, 1, '2026-07-01', 'Rude and way too expensive.')], replace: false, dryRun: false });
    await svc.server.live.refresh();
    const changed = await fetch(`${svc.url}/insights.json`, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200);
    assert.equal(((await changed.json()) as Insights).review_count, 9);
  });
});

describe('the shipped model', () => {
  it('is made again, the same, after model.json was decoded once and its long strings let go', () => {
    const text = 'The price was fair but he showed up two hours late.';
    const first = new AspectAnalyser([], AspectModel.fromFile()).text(text, 4);
    const again = new AspectAnalyser([], AspectModel.fromFile()).text(text, 4);
    assert.ok(first.some((s) => s.aspects.length > 0), 'the sentence judges an aspect');
    assert.deepEqual(again, first);
  });

  it('writes back the file it was read from: word pairs held by their words, weights kept at 16 bits', () => {
    const file = JSON.parse(readFileSync(new URL('../src/core/insights/model.json', import.meta.url), 'utf8')) as ReturnType<AspectModel['toFile']>;
    const model = AspectModel.fromFile();
    const again = model.toFile(file.trained_on);
    assert.equal(again.features, file.features, 'every feature, in its row order');
    assert.equal(again.weights, file.weights);
    assert.equal(again.scale, file.scale);
    const features = file.features.split('\n');
    const width = model.labels.length + 3 + 3 * (model.labels.length + 1);
    // A pair, a lexicon pattern with a space (not a pair) and a single word find their own rows.
    for (const f of ['showed up', 'P:on time', 'bias']) assert.equal(model.row(f), features.indexOf(f) * width, f);
    assert.equal(model.row('showed nothing-like-this'), -1);
    assert.equal(model.row('no-such-feature'), -1);
  });
});

describe('aspect model: a second aspect in one clause', () => {
  // Detection only: by default "friendly" ties a clause to professionalism more than "quick" ties it to punctuality.
  interface Shape {
    words?: Record<string, [string, number]>;
    thresholds?: Record<string, number>;
    backed?: number;
  }
  const model = (secondary: number, shape: Shape = {}): AspectModel => {
    const labels = AspectModel.fromFile().labels;
    const words = shape.words ?? { friendly: ['professionalism', 9], quick: ['punctuality', 6] };
    const weights: Record<string, number[]> = { bias: labels.map(() => -5) };
    for (const [word, [label, w]] of Object.entries(words)) weights[word] = labels.map((l) => (l === label ? w : 0));
    return AspectModel.fromParts({
      method: 'a few words (test)',
      trained_on: { files: [], rows: 0 },
      thresholds: labels.map((l) => shape.thresholds?.[l] ?? 0.5),
      backed: shape.backed ?? 1,
      secondary,
      detect: { labels: [...labels], weights },
      polarity: { labels: [], weights: {} },
      review: { labels: ['positive', 'negative', 'neutral'], weights: {} },
    });
  };
  const found = (secondary: number, text: string, shape?: Shape) =>
    new AspectAnalyser([], model(secondary, shape)).text(text, 5).flatMap((s) => s.aspects.map((a) => a.aspect)).sort();

  it('is found past its threshold when no wider margin is asked (logits: professionalism 4, punctuality 1)', () => {
    assert.deepEqual(found(0, 'He was friendly and quick.'), ['professionalism', 'punctuality']);
    assert.deepEqual(found(1, 'He was friendly and quick.'), ['professionalism', 'punctuality']);
  });

  it('needs the wider margin in the clause of the aspect furthest past its threshold, which stays', () => {
    assert.deepEqual(found(1.5, 'He was friendly and quick.'), ['professionalism']);
    // Alone in its clause, the same margin is enough.
    assert.deepEqual(found(1.5, 'He was quick.'), ['punctuality']);
    assert.deepEqual(found(1.5, 'He was friendly.'), ['professionalism']);
    // Whichever aspect comes first in the taxonomy: here punctuality is the one further past.
    assert.deepEqual(found(1.5, 'He was friendly and quick.', { words: { friendly: ['professionalism', 6], quick: ['punctuality', 9] } }), ['punctuality']);
  });

  it('is ranked by the margin past each threshold, not by the raw score', () => {
    // Professionalism scores 4 against a threshold of 0.95 (logit 2.94): 1.06 past; punctuality 2 against 0.5: 2 past.
    const shape: Shape = { words: { friendly: ['professionalism', 9], quick: ['punctuality', 7] }, thresholds: { professionalism: 0.95 } };
    assert.deepEqual(found(1.5, 'He was friendly and quick.', shape), ['punctuality']);
  });

  it('counts from the lower threshold where the lexicon judges the aspect too', () => {
    // "time" leaves punctuality at -0.5, short of 0.5's logit 0 but past 0.25's (-1.1), from which the lexicon's "on time" finds it.
    const shape: Shape = { words: { friendly: ['professionalism', 9], time: ['punctuality', 4.5] }, backed: 0.5 };
    assert.deepEqual(found(1.5, 'He was on time.', shape), ['punctuality']);
    assert.deepEqual(found(1.5, 'He was on time.', { ...shape, backed: 1 }), []);
    assert.deepEqual(found(1.5, 'He was friendly and on time.', shape), ['professionalism']);
    assert.deepEqual(found(0, 'He was friendly and on time.', shape), ['professionalism', 'punctuality']);
  });

  it("stands on its own past a contrast word, where the clause that speaks most of it is not the top aspect's", () => {
    assert.deepEqual(found(1.5, 'He was friendly, but quick.'), ['professionalism', 'punctuality']);
    assert.deepEqual(found(1.5, 'He was quick, but friendly.'), ['professionalism', 'punctuality']);
  });
});

describe('aspect analyser: a sentence that only sets the scene', () => {
  const analyser = new AspectAnalyser();
  const found = (text: string, stars: number) => analyser.sentence(text, stars).aspects.map((a) => `${a.aspect}:${a.polarity}`);

  it('judges nothing: what broke, or why they were called, is not a verdict on the service', () => {
    for (const text of [
      'We booked them after our AC stopped blowing cold air.',
      'Called Northwind because the heat pump was making a grinding noise.',
      'Second time using Northwind, this time because our old electrical panel needed replacing.',
      'Our water heater died on a Sunday night.',
      'My dishwasher was leaking all over the kitchen floor.',
    ]) {
      for (const stars of [1, 3, 5]) assert.deepEqual(found(text, stars), [], `${text} (${stars} stars)`);
    }
  });

  it('judges as before where the service comes in, or the words judge it', () => {
    // The same words told without the scene's framing are read as a verdict on the work (so the rule is what empties them above).
    assert.deepEqual(found('The heat pump was making a grinding noise.', 1), ['quality_of_work:negative']);
    // Sentences that go on to the service, or in which the words judge it, keep their aspects.
    assert.deepEqual(found('Our AC died in July and they had someone here the same afternoon.', 5), ['scheduling:positive']);
    assert.deepEqual(found('Called them because the sink was clogged, and the plumber was rude.', 1), ['professionalism:negative']);
    assert.deepEqual(found('Our furnace stopped working again a week after their repair.', 1), ['quality_of_work:negative']);
    // "Our"/"my" and a verb that is not a breakdown's, or a new unit failing, or the price, the bill, the calls: the service judged.
    const judged: [string, number, string][] = [
      ['Our brand new water heater died within a month.', 1, 'quality_of_work:negative'],
      ['Our new faucet started leaking the next day.', 1, 'quality_of_work:negative'],
      ['My quote kept going up.', 1, 'pricing:negative'],
      ['My calls kept going to voicemail.', 1, 'communication:negative'],
      ['Our appointment kept getting pushed back.', 1, 'scheduling:negative'],
      ['Our warranty claim kept getting denied.', 1, 'warranty:negative'],
      ["My invoice wasn't a penny over the estimate.", 5, 'pricing:positive'],
      ['Our new furnace started right up on the first try.', 5, 'quality_of_work:positive'],
      ['We called them because our drain was clogged and the whole thing cost under 150 dollars.', 5, 'pricing:positive'],
    ];
    for (const [text, stars, verdict] of judged) assert.ok(found(text, stars).includes(verdict), `${text} (${stars} stars): ${found(text, stars).join(', ')}`);
  });

  it('reads a long run of spaces in one pass (the contrast split once tried every split of it)', () => {
    assert.deepEqual(splitClauses(`fine${' '.repeat(10_000)}but slow`), ['fine', 'slow']);
    assert.deepEqual(found(`Called them${' '.repeat(10_000)}because our AC died.`, 3), []);
  });
});

describe('kept analyses', () => {
  it('share one frozen object per distinct judgement and one frozen empty array for what a review does not name', () => {
    const analyser = new ReviewAnalyser(BUSINESS);
    const text = 'They showed up on time and the price was fair.';
    const [a, b] = [1, 2].map((i) => analyser.analyse({ ...REVIEWS[0]!, id: `r${i}`, rating: 5, text }).per);
    assert.ok(a!.aspects.length >= 2, 'the text judges two aspects');
    a!.aspects.forEach((j, i) => {
      assert.equal(j, b!.aspects[i], 'the same judgement is one object');
      assert.ok(Object.isFrozen(j) && Object.isFrozen(j.phrases));
    });
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a!.aspects), 'the analysis and its non-empty arrays are frozen too');
    assert.deepEqual(a!.technicians, []);
    assert.equal(a!.technicians, b!.services, 'one empty array');
    assert.throws(() => (a!.technicians as string[]).push('Zed'), TypeError);
    assert.throws(() => {
      (a!.aspects[0] as { polarity: string }).polarity = 'negative';
    }, TypeError);
    // A different judgement of the same aspect is another object, and an analysis at other stars is not changed by the sharing.
    const low = analyser.analyse({ ...REVIEWS[0]!, id: 'r3', rating: 1, text: 'They showed up two hours late.' }).per;
    assert.notEqual(low.aspects[0], a!.aspects.find((j) => j.aspect === low.aspects[0]!.aspect));
    assert.deepEqual(
      analyser.analyse({ ...REVIEWS[0]!, id: 'r4', rating: 5, text }).per,
      new ReviewAnalyser(BUSINESS).analyse({ ...REVIEWS[0]!, id: 'r4', rating: 5, text }).per,
    );
  });

  it('hold what they share within a budget in bytes, whatever the reviews say, and read the same', () => {
    const budget = { strings: 4096, judgements: 4096 };
    const small = new ReviewAnalyser(BUSINESS, undefined, budget);
    const free = new ReviewAnalyser(BUSINESS, undefined, { strings: Infinity, judgements: Infinity });
    let most = { stringBytes: 0, judgementBytes: 0 };
    // A made-up word per number ("zoa", "zob" ...): each review names its own parts and crew (topics) and what was ignored (a phrase).
    const word = (i: number) => `zo${i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)))}`;
    for (let i = 0; i < 300; i++) {
      const text = `The ${word(i)} valve was installed by the ${word(i + 1000)} crew. He ignored my ${word(i + 2000)} and never called back, and the price was way too high.`;
      const review = { ...REVIEWS[0]!, id: `b${i}`, rating: 1 + (i % 5), text };
      assert.deepEqual(small.analyse(review).per, free.analyse(review).per, review.text);
      const held = small.shared;
      most = { stringBytes: Math.max(most.stringBytes, held.stringBytes), judgementBytes: Math.max(most.judgementBytes, held.judgementBytes) };
    }
    assert.ok(most.stringBytes <= budget.strings && most.judgementBytes <= budget.judgements, JSON.stringify(most));
    // Without the budget the same reviews hold more than it: the bound is what kept them in.
    assert.ok(free.shared.stringBytes > budget.strings, JSON.stringify(free.shared));
    assert.ok(free.shared.judgementBytes > budget.judgements, JSON.stringify(free.shared));
  });
});
