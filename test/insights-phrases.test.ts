/** Every phrase the insights document shows people is a real phrase (a run of a review's words between marks, not cut off on a function word), topics are whole phrases of one sense, and a claim like "best" rests on a margin the counts support. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { benchReviews } from '../bench/lib/dataset.js';
import { buildInsights } from '../src/core/insights/build.js';
import { listed } from '../src/core/insights/faq.js';
import { countIsHigher, shareIsHigher } from '../src/core/insights/figures.js';
import { AspectModel } from '../src/core/insights/model.js';
import { ReviewAnalyser } from '../src/core/insights/per-review.js';
import { readablePhrase, tokenize, tokenizeMarked } from '../src/core/insights/text.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import type { Insights } from '../src/core/schema/insights.js';
import type { Review } from '../src/core/schema/review.js';

/** Words a phrase cannot stop on without being cut mid-phrase (written here, apart from the analyser's own list). */
const DANGLING = new Set(
  'a an the my our your his her their its me us him them this that these those to of at by for with from into about as and or but if than so not no is was were be been are do does did has have had will would can could what which who when where how under above below beneath beyond during within between against toward towards upon via while until'.split(' '),
);

/** Every phrase a reader sees across the document: top phrases, topic labels, quoted words in the summary and FAQ answers. */
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
  return out;
}

/**
 * The review texts as the runs of words a phrase may take: " | " where punctuation, a quote or a
 * dash parts words (written here, apart from the code's own wordRuns), " . " where a sentence ends.
 */
function runsOf(text: string): string {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) =>
      sentence
        .split(/[,;:!?()"\u201c\u201d\u2026\u2013\u2014/]|\.(?!\d)|(?<![\w])['\u2018\u2019]|['\u2018\u2019](?![\w])|\s-+\s/)
        .map((part) => tokenize(part).join(' '))
        .filter((run) => run.length > 0)
        .join(' | '),
    )
    .join(' . ');
}

/** Words a topic cannot end on (written here, apart from themes.ts). */
const PARTICLES = new Set('back away off over out up down around again later though anyway instead'.split(' '));

/** Fixed phrases whose last word stands as an adverb, not as a preposition waiting for its noun. */
const IDIOMS = new Set(['above and beyond']);

/** The phrase is whole: not ended on a function word, unless the writer's sentence ends there too ("did not seem to know what to do.") or it is an idiom. */
function assertWhole(where: string, phrase: string, text: string): void {
  const words = tokenize(phrase);
  assert.ok(words.length > 0, `${where}: empty phrase`);
  const whole = !DANGLING.has(words[words.length - 1]!) || text.includes(` ${words.join(' ')} . `) || [...IDIOMS].some((i) => words.join(' ').endsWith(i));
  assert.ok(whole, `${where}: "${phrase}" ends on a function word`);
  assert.ok(text.includes(` ${words.join(' ')} `), `${where}: "${phrase}" is not a run of words any review wrote between two marks`);
}

function check(doc: Insights, reviews: readonly Review[]): void {
  const corpus = ` ${reviews.map((r) => runsOf(r.text ?? '')).join(' . ')} . `;
  const seen = new Set<string>();
  for (const { where, phrase } of phrasesOf(doc)) {
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    assertWhole(where, phrase, corpus);
  }
  // A topic ending on a particle or adverb is a verb's tail whose sense its subject decides ("came back").
  for (const t of doc.topics) assert.ok(!PARTICLES.has(t.label.split(' ').at(-1)!), `topic "${t.label}" ends on a particle or adverb`);
  // A review's own phrases come from its own words.
  const texts = new Map(reviews.map((r) => [r.id, ` ${runsOf(r.text ?? '')} . `]));
  for (const [id, r] of Object.entries(doc.per_review)) for (const a of r.aspects) for (const p of a.phrases) assertWhole(`review ${id} ${a.aspect}`, p, texts.get(id)!);
  // The summary is plain sentences: each starts with a capital or a digit and ends with a full stop.
  for (const sentence of (doc.summary ?? '').split(/(?<=\.)\s+/)) assert.match(sentence, /^[A-Z0-9].*\.$/, sentence);
  if (doc.pull_quote) assert.ok(reviews.some((r) => r.text?.includes(doc.pull_quote!.text)), 'the pull quote is a sentence of a review');
}

let made = 0;
/** A review of the demo business with these words and stars. */
function review(text: string, rating: number): Review {
  made++;
  const day = String(1 + (made % 28)).padStart(2, '0');
  return { id: `r${String(made).padStart(4, '0')}`, author: 'A. Reviewer', author_avatar_url: null, rating, date: `2026-10-${day}`, text, source: 'google', source_url: null, owner_reply: null, verified: true, source_id: null };
}
const times = (n: number, f: () => Review): Review[] => Array.from({ length: n }, f);
const build = (reviews: readonly Review[]) => buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z');

/**
 * A model that finds the aspects the lexicon reads and takes each one's verdict from the stars
 * alone (4-5 positive, 1-2 negative, 3 neutral): phrase tests then choose the verdict, and a
 * retrained model cannot route around what they test.
 */
function verdictModel(ties: Record<string, string> = {}): AspectModel {
  const labels = AspectModel.fromFile().labels;
  const A = labels.length;
  const detect: Record<string, number[]> = { bias: labels.map(() => -10) };
  labels.forEach((l, k) => (detect[`R:${l}`] = labels.map((_, j) => (j === k ? 20 : 0))));
  // `ties`: a word that ties its clause to a label more than the lexicon's reading does.
  for (const [word, label] of Object.entries(ties)) detect[word] = labels.map((l) => (l === label ? 30 : 0));
  const polarity: Record<string, number[]> = {};
  [1, 2, 3, 4, 5].forEach((n) => {
    const w = new Array<number>(3 + 3 * A).fill(0);
    w[n >= 4 ? 0 : n <= 2 ? 1 : 2] = 10;
    polarity[`stars:${n}`] = w;
  });
  return AspectModel.fromParts({
    method: 'stars only (test)',
    trained_on: { files: [], rows: 0 },
    thresholds: labels.map(() => 0.5),
    backed: 1,
    secondary: 0,
    detect: { labels: [...labels], weights: detect },
    polarity: { labels: [], weights: polarity },
    review: { labels: ['positive', 'negative', 'neutral'], weights: {} },
  });
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

  it('so do the blind-written sentences of eval/, as reviews: words no template made', () => {
    const reviews: Review[] = [];
    for (const file of readdirSync('eval').filter((f) => /^absa-.*\.tsv$/.test(f))) {
      for (const line of readFileSync(`eval/${file}`, 'utf8').split('\n').slice(1)) {
        const [text, stars] = line.split('\t');
        if (text) reviews.push(review(text, Number(stars)));
      }
    }
    assert.ok(reviews.length > 5000, `${reviews.length} sentences`);
    check(build(reviews), reviews);
  });

  it('a cut phrase is caught: the check itself can fail', () => {
    const reviews = demoReviews(40);
    const doc = buildInsights(DEMO_BUSINESS, reviews, '2026-11-22T00:00:00Z');
    const broken = { ...doc, aspects: doc.aspects.map((a, i) => (i === 0 ? { ...a, top_phrases: ['ignored my'] } : a)) };
    assert.throws(() => check(broken, reviews), /ends on a function word/);
  });

  it('a phrase never runs across punctuation or quotes, and the check catches one that does', () => {
    const reviews = [review('Great job, "fast" too.', 5), review("They did a great job. 'Fast' and tidy.", 5), ...demoReviews(20)];
    const doc = build(reviews);
    const phrases = doc.per_review[reviews[0]!.id]!.aspects.flatMap((a) => a.phrases);
    assert.ok(phrases.includes('great job'), phrases.join(', '));
    assert.ok(!phrases.some((p) => p.includes('job fast')), phrases.join(', '));
    check(doc, reviews);
    const glued = { ...doc, aspects: doc.aspects.map((a, i) => (i === 0 ? { ...a, top_phrases: ['great job fast'] } : a)) };
    assert.throws(() => check(glued, reviews), /"great job fast" is not a run of words/);
    const polite = { ...doc, topics: [{ label: 'polite professional', review_count: 3, sentiment: { score: 1, positive: 3, neutral: 0, negative: 0 }, example_review_ids: [] }] };
    assert.throws(() => check(polite, [...reviews, review('Marco was polite, professional and quick.', 5)]), /"polite professional" is not a run of words/);
  });

  it('a cut phrase keeps a negation with what it negates, and leaves out a bare mention', () => {
    const covered = review('They said the part was "not covered" even though it was six months old.', 1);
    const job = review('They were on time, the tech was great, the job got done and the price was right.', 5);
    const doc = build([covered, job, ...demoReviews(20)]);
    const phrases = (r: Review) => doc.per_review[r.id]!.aspects.flatMap((a) => a.phrases);
    assert.deepEqual(phrases(covered), ['not covered']);
    assert.ok(phrases(job).includes('great'), phrases(job).join(', '));
    assert.ok(!phrases(job).some((p) => /job/.test(p)), phrases(job).join(', '));
    check(doc, [covered, job, ...demoReviews(20)]);
  });

  it('judgements the lexicon words carry get a whole phrase: negators beyond "not", phrases that end the sentence', () => {
    const nobody = review('Nobody called back when I asked for an update.', 1);
    const lost = review('The technician, Tommy, did not seem to know what to do.', 1);
    const doc = build([nobody, lost, ...demoReviews(20)]);
    const phrasesOf = (r: Review, aspect: string) => doc.per_review[r.id]!.aspects.find((a) => a.aspect === aspect)?.phrases;
    assert.deepEqual(phrasesOf(nobody, 'communication'), ['nobody called back']);
    assert.deepEqual(phrasesOf(lost, 'technical_knowledge'), ['did not seem to know what to do']);
  });

  it('a verdict a later clause turns quotes the words that turned it, not those it overrode', () => {
    const pricey = review('Pricey, but great.', 5);
    const rude = review('He was rude at first, but in the end he was excellent.', 5);
    const cheap = review('Cheap, but terrible.', 1);
    const doc = build([pricey, rude, cheap, ...demoReviews(20)]);
    const of = (r: Review, aspect: string) => doc.per_review[r.id]!.aspects.find((a) => a.aspect === aspect);
    // Since 2.9.0 the model lets the later clause decide the price ("the clause that ends the point wins", as the dev set's
    // labelling has it) and quotes the word that turned it, not "pricey" (2.6.1-2.8.0 hedged to neutral and quoted nothing).
    assert.deepEqual(of(pricey, 'pricing'), { aspect: 'pricing', polarity: 'positive', phrases: ['great'] });
    assert.deepEqual(of(rude, 'professionalism'), { aspect: 'professionalism', polarity: 'positive', phrases: ['excellent'] });
    assert.deepEqual(of(cheap, 'pricing'), { aspect: 'pricing', polarity: 'negative', phrases: ['terrible'] });
  });

  it('...only its words that lean its way, the earlier words where it agrees, and each found in its own clause', () => {
    // The verdict comes from the stars alone (verdictModel), so these cases test which words are quoted for a verdict, whatever the trained model would say.
    const analyser = new ReviewAnalyser(DEMO_BUSINESS, verdictModel());
    const phrases = (text: string, stars: number, aspect: string) => analyser.analyse(review(text, stars)).per.aspects.find((a) => a.aspect === aspect)?.phrases;
    assert.deepEqual(phrases('Pricey, but great and a bit slow.', 5, 'pricing'), ['great']);
    assert.deepEqual(phrases('The tech was late, but fine, if slow.', 1, 'punctuality'), ['late']);
    // "not good" is the third clause's; the first clause's "good" must not take the "no" of "no hassle".
    assert.deepEqual(phrases('No hassle, good price, but honestly not good.', 1, 'pricing'), ['not good']);
    assert.deepEqual(phrases('Pricey, but not bad.', 5, 'pricing'), ['not bad']);
  });

  it('a hedged verdict is not decided by a later clause that names no aspect, when the model read the aspect on another clause', () => {
    // At 3 stars verdictModel hedges (neutral), so the lexicon's clear verdict would decide: "great" is the work's, not the price's.
    const analyser = new ReviewAnalyser(DEMO_BUSINESS, verdictModel());
    const pricing = (text: string) => analyser.analyse(review(text, 3)).per.aspects.find((a) => a.aspect === 'pricing');
    assert.deepEqual(pricing('A bit pricey but they did great work.'), { aspect: 'pricing', polarity: 'neutral', phrases: [] });
    // Where the later clause names the price itself, or there is one clause, the lexicon still decides.
    assert.deepEqual(pricing('Pricey, but worth it.'), { aspect: 'pricing', polarity: 'positive', phrases: ['worth it'] });
    assert.deepEqual(pricing('The price was great.'), { aspect: 'pricing', polarity: 'positive', phrases: ['price was great'] });
    // And where the model itself reads the price on the clause that answered, that clause's verdict decides.
    const tied = new ReviewAnalyser(DEMO_BUSINESS, verdictModel({ great: 'pricing' }));
    assert.deepEqual(
      tied.analyse(review('A bit pricey but they did great work.', 3)).per.aspects.find((a) => a.aspect === 'pricing'),
      { aspect: 'pricing', polarity: 'positive', phrases: ['great'] },
    );
  });

  it("a review's judgement of an aspect quotes only the sentences that agree with its verdict", () => {
    // Reviews that praise an aspect in one sentence and fault it in another: the demo's ("explained" and
    // "ignored my calls" for communication) and 2,000 generated ones.
    const analyser = new ReviewAnalyser(DEMO_BUSINESS);
    let mixed = 0;
    for (const review of [...demoReviews(), ...benchReviews(2000)]) {
      if (!review.text) continue;
      const read = analyser.analyser.review(review.text, review.rating);
      for (const j of analyser.analyse(review, read).per.aspects) {
        const hits = read.sentences.flatMap((s) => s.aspects.filter((h) => h.aspect === j.aspect));
        if (new Set(hits.map((h) => h.polarity)).size > 1) mixed++;
        const agreeing = new Set(hits.filter((h) => h.polarity === j.polarity).flatMap((h) => h.phrases));
        // Phrases are cut at marks after the analyser (withinMarks), so each quoted one lies inside an agreeing sentence's phrase.
        for (const p of j.phrases) assert.ok([...agreeing].some((q) => q.includes(p)), `${review.id} ${j.aspect} (${j.polarity}) quotes "${p}" from a sentence that says otherwise: ${review.text}`);
      }
    }
    assert.ok(mixed > 20, `reviews that judge one aspect both ways are tested (${mixed})`);
  });

  it('a phrase is carried on to its next word only within its clause (the contrast word between clauses is not in the tokens)', () => {
    const tokens = ['they', 'fixed', 'it', 'the', 'roof', 'leaks'];
    assert.equal(readablePhrase('fixed it', tokens), 'fixed it the roof leaks');
    const stops = Uint8Array.of(0, 0, 0, 1, 0, 0);
    assert.equal(readablePhrase('fixed it', tokens, stops), null);
    assert.equal(readablePhrase('fixed', tokens, stops), 'fixed');
    assert.equal(readablePhrase('it the roof', tokens, stops), null);
    // Nor is a negator given the auxiliary that ends the clause before it.
    const promised = tokenize('They promised they would never on time');
    assert.equal(readablePhrase('not on time', promised, Uint8Array.of(0, 0, 0, 0, 1, 0, 0)), 'never on time');
    assert.equal(readablePhrase('not on time', promised), 'would never on time');
  });

  it('a phrase is not ended on a conjunction or preposition waiting for its clause or noun', () => {
    assert.equal(readablePhrase('fixed it', tokenize('He fixed it while he was there.')), null);
    assert.equal(readablePhrase('fixed it', tokenize('He fixed it during the storm.')), 'fixed it during the storm');
    assert.equal(readablePhrase('kept it', tokenize('They kept it within budget.')), 'kept it within budget');
  });

  it('a phrase stopped inside a noun phrase takes the words up to its noun, and no further', () => {
    const phrase = (p: string, sentence: string) => {
      const { tokens, breaks } = tokenizeMarked(sentence);
      return readablePhrase(p, tokens, undefined, 0, breaks);
    };
    // After a determiner and a modifier: to the noun, through noun modifiers, two words at most.
    assert.equal(phrase('found the', 'He found the cracked heat exchanger that two others missed.'), 'found the cracked heat exchanger');
    assert.equal(phrase('found the', 'She found the bad heating element in minutes.'), 'found the bad heating element');
    assert.equal(phrase('not a cheap', 'Not a cheap fix by any means.'), 'not a cheap fix');
    assert.equal(phrase('no hot', 'Still no hot water, three days on.'), 'no hot water');
    assert.equal(phrase('lower than', 'It was lower than the other two quotes we had.'), 'lower than the other two quotes');
    // A noun already there is not carried on into what follows it: a preposition, an adverb, a participle, a number, a verb in -ing.
    assert.equal(phrase('found the', 'She found the leak behind the wall.'), 'found the leak');
    assert.equal(phrase('found the', 'He found the problem right away.'), 'found the problem');
    assert.equal(phrase('found the', 'He found the coin jammed in the pump.'), 'found the coin');
    assert.equal(phrase('call his', 'He had to call his supervisor twice.'), 'call his supervisor');
    assert.equal(phrase('call his', 'He had to call his supervisor three times.'), 'call his supervisor');
    assert.equal(phrase('left a mess', 'They left a mess doing it.'), 'left a mess');
    assert.equal(phrase('found the', 'He found the bad wiring.'), 'found the bad wiring');
    assert.equal(phrase('found the', 'He found the bad speed sensor.'), 'found the bad speed sensor');
    assert.equal(phrase('saved me a', 'It saved me a few hundred dollars.'), 'saved me a few hundred dollars');
    // Nor across a mark the writer put there.
    assert.equal(phrase('no hot', 'Still no hot, muddy water.'), 'no hot');
    // Nor, in run-on text, into the next clause: a verb in the past, a contraction, a name after a phrase the lexicon ends on its noun.
    assert.equal(phrase('found the', 'He found the leak took care of it in an hour.'), 'found the leak');
    assert.equal(phrase('left a mess', "They left a mess that's still there."), 'left a mess');
    assert.equal(phrase('worth every penny', 'Worth every penny Marco charged.'), 'worth every penny');
    assert.equal(phrase('no show', 'Total no show Tom never even called.'), 'no show');
  });

  it('a reported promise is quoted with what was promised: "when they said they would", not "when they said"', () => {
    assert.equal(readablePhrase('when they said', tokenize('They showed up exactly when they said they would.')), 'when they said they would');
    assert.equal(readablePhrase('when he said', tokenize("He was here when he said he'd.")), "when he said he'd");
    // Not mid-sentence, where it would stop on the modal ("he would to finish"); nor said of anything else.
    assert.equal(readablePhrase('when he said', tokenize('He came back exactly when he said he would to finish the job.')), 'when he said');
    assert.equal(readablePhrase('when they said', tokenize('It was done when they said.')), 'when they said');
  });

  it('an object "it" before "and" or "or" ends its phrase rather than taking the start of the next', () => {
    assert.equal(readablePhrase('fixed it', tokenize('He fixed it and showed me the old part.')), 'fixed it');
    assert.equal(readablePhrase('worth it', tokenize('Pricey, but worth it and a bit slow.')), 'worth it');
    assert.equal(readablePhrase('fixed it', tokenize('Either they fixed it or they did not.')), 'fixed it');
    // Before anything else the phrase still runs on to its next content word.
    assert.equal(readablePhrase('fixed it', tokenize('They fixed it the same day.')), 'fixed it the same day');
  });

  it('a general word is quoted with a mention only from its own part of the clause, never across "and the", "and they"', () => {
    // Gaps are not filled across an "and" that starts another phrase; an "and" joining two words still joins them.
    assert.equal(readablePhrase('quick price', tokenize('They were quick and the price was fair.')), null);
    assert.equal(readablePhrase('rate refused', tokenize('It renewed at a higher rate and they refused to refund it.')), null);
    assert.equal(readablePhrase('great price', tokenize('Great service and price.')), 'great service and price');
    const quick = review('They fixed it quickly and the price was fair.', 5);
    const scheduling = review('Scheduling was quick and the price was fair, but the fix only lasted a month.', 2);
    const advice = review('I got good advice and a bad attitude from the same person.', 2);
    const doc = build([quick, scheduling, advice, ...demoReviews(20)]);
    const phrasesOf = (r: Review, aspect: string) => doc.per_review[r.id]!.aspects.find((a) => a.aspect === aspect)?.phrases;
    // Before analyser 2.6.3: "quickly and the price was fair", "quick and the price was fair", "good advice and a bad attitude".
    assert.deepEqual(phrasesOf(quick, 'pricing'), ['price was fair']);
    assert.deepEqual(phrasesOf(scheduling, 'pricing'), ['price was fair']);
    assert.deepEqual(phrasesOf(advice, 'professionalism'), ['bad attitude']);
  });

  it('topics are noun phrases or whole verb phrases, and never merge opposite senses', () => {
    const reviews = [
      // "came back" in opposite senses: the tech returned to fix it, and the fault returned.
      ...times(4, () => review('The part failed, so they came back and fixed it under warranty.', 5)),
      ...times(4, () => review('The same leak came back a week later.', 1)),
      // Fragments the old two-word topics made: an adverb and a bare verb, a superlative cut from its comparison, two adjectives across a comma.
      ...times(4, () => review('Priya was friendly and clearly knew the job.', 5)),
      ...times(4, () => review('Ask for Marco, the best technician we have had.', 5)),
      ...times(4, () => review('Lena was polite, professional and explained everything.', 5)),
      ...times(4, () => review('The heat pump was making a grinding noise.', 4)),
      ...times(3, () => review('Excellent customer service.', 5)),
      ...times(3, () => review('Customer service was terrible.', 1)),
    ];
    const doc = build(reviews);
    const labels = doc.topics.map((t) => t.label);
    for (const fragment of ['came back', 'clearly knew', 'best technician', 'polite professional', 'excellent customer']) assert.ok(!labels.includes(fragment), `${fragment} in ${labels.join(', ')}`);
    for (const topic of ['heat pump', 'grinding noise', 'explained everything']) assert.ok(labels.includes(topic), `${topic} not in ${labels.join(', ')}`);
    // An opinion before a compound counts for the compound: praise and complaint of customer service are one topic.
    assert.deepEqual(
      doc.topics.find((t) => t.label === 'customer service')?.review_count,
      6,
    );
    check(doc, reviews);
  });

  it('no technician is called best on a difference the review counts do not support', () => {
    const good = (name: string) => () => review(`${name} was friendly and clearly knew the job. Highly recommend!`, 5);
    const bad = (name: string) => () => review(`${name} was rude when I asked questions. Never again.`, 1);
    // Priya 16 of 21 positive against Marco 41 of 55: 76% against 75%, a near tie as in the demo (18 of 21 against 46 of 55 with analyser 2.5.0).
    const close = build([...times(16, good('Priya')), ...times(5, bad('Priya')), ...times(41, good('Marco')), ...times(14, bad('Marco'))]);
    const techs = Object.fromEntries(close.entities.technicians.map((t) => [t.name, [t.sentiment.positive, t.mention_count]]));
    assert.deepEqual([techs.Priya, techs.Marco], [[16, 21], [41, 55]], 'the reviews read as intended');
    const tie = close.faq.find((f) => f.id === 'best_technician')!;
    assert.match(tie.answer, /^No one technician stands out: Priya has the highest share of positive reviews \(16 of 21, 76\.2%\), but the lead over Marco \(41 of 55, 74\.5%\) is within what chance gives/);
    assert.match(tie.answer, /Praised in the most reviews: Marco \(named in 55 reviews, 41 positive/);
    // 20 of 20 against 8 of 20: a lead the counts carry.
    const clear = build([...times(20, good('Lena')), ...times(8, good('Tom')), ...times(12, bad('Tom'))]);
    assert.match(clear.faq.find((f) => f.id === 'best_technician')!.answer, /^Lena, by what customers write: 20 of the 20 reviews naming Lena are positive/);
    // One technician alone is not "best" of anyone.
    const alone = build(times(5, good('Dwayne')));
    assert.match(alone.faq.find((f) => f.id === 'best_technician')!.answer, /^No one technician stands out: Dwayne is the only technician named/);
  });
});

describe('the margins behind "best" and "most"', () => {
  it('a share is higher only beyond chance (Newcombe 95% interval)', () => {
    assert.equal(shareIsHigher(16, 21, 41, 55), false);
    assert.equal(shareIsHigher(20, 20, 8, 20), true);
    assert.equal(shareIsHigher(3, 3, 1, 3), false, 'three reviews each are too few');
    assert.equal(shareIsHigher(300, 400, 250, 400), true);
  });

  it('a count is higher only beyond chance (sign test)', () => {
    assert.equal(countIsHigher(39, 36), false);
    assert.equal(countIsHigher(138, 93), true);
  });

  it('aspects tied at the top are named together, never one of them as "most"', () => {
    const reviews = (texts: [string, number][]): Review[] =>
      texts.map(([text, rating], i) => ({ ...demoReviews()[0]!, id: `tie${i}`, date: `2026-0${1 + i}-15`, rating, text, owner_reply: null }));
    const three: [string, number][] = [
      ['The price was way too high.', 1],
      ['He left a huge mess in the kitchen.', 1],
      ['He showed up three hours late.', 1],
      ['Very polite and professional.', 5],
      ['They explained everything clearly.', 5],
    ];
    const tied = buildInsights(DEMO_BUSINESS, reviews(three), '2026-11-22T00:00:00Z');
    const answer = (doc: Insights, id: string) => doc.faq.find((f) => f.id === id)!.answer;
    assert.equal(answer(tied, 'most_complained'), 'No one aspect stands out: cleanliness, pricing and value, and punctuality are each criticised in 1 review.');
    assert.equal(answer(tied, 'most_praised'), 'No one aspect stands out: communication and professionalism are each praised in 1 review.');
    assert.match(tied.summary!, /No complaint stands out: cleanliness, pricing and value, and punctuality have 1 negative mention each\./);
    assert.doesNotMatch(tied.summary!, /most common complaint/);
    // One more complaint about the price makes it the most common; the two still level behind it are named together.
    const ahead = buildInsights(DEMO_BUSINESS, reviews([...three, ['Way overpriced for a simple job.', 1]]), '2026-11-22T00:00:00Z');
    assert.match(answer(ahead, 'most_complained'), /^Pricing and value: criticised in 2 reviews \(100% of those that mention it\)\. Cleanliness and punctuality are close behind \(1 review each\)\./);
    assert.match(ahead.summary!, /The most common complaint is about pricing and value: 2 negative mentions, .*\. Cleanliness and punctuality are close behind \(1 negative mention each\)\./);
    // Labels hold "and": two names of which one does are parted by a comma, so the list reads one way.
    assert.equal(listed(['pricing and value', 'punctuality']), 'pricing and value, and punctuality');
    assert.equal(listed(['cleanliness', 'punctuality']), 'cleanliness and punctuality');
    assert.equal(listed(['a', 'b', 'c', 'd', 'e', 'f']), 'a, b, c, d, and 2 more');
  });
});
