/** Builds the insights document from a business and its reviews. */
import type { Business } from '../schema/business.js';
import type { AspectEntry, Insights, PerReview } from '../schema/insights.js';
import type { Review } from '../schema/review.js';
import { wholeWordMatcher } from '../text-match.js';
import { faqFor } from './faq.js';
import { AnalysisCache, entityPhrasesOf, MODEL_NAME, ReviewAnalyser } from './per-review.js';
import { sentimentCounts, topCounts, type Analysed, type AspectIndex, type Figures } from './figures.js';
import { TAXONOMY_VERSION } from './taxonomy.js';
import { monthlyFigures, trendOf } from './temporal.js';
import { topicsOf } from './recurring-themes.js';
import { meanRating } from '../reviews.js';
import { pct, round2 } from './numbers.js';
import { pullQuoteOf, summaryOf } from './summary.js';

const EXAMPLES = 5;

/** Stats of the reviews naming an entity, with the judging phrases of the sentences that name it. */
function statsOf(items: readonly Analysed[], phrasesOf: (x: Analysed) => readonly string[]) {
  const phrases = items.flatMap(phrasesOf);
  return {
    mention_count: items.length,
    average_rating: meanRating(items.map((i) => i.review.rating)),
    sentiment: sentimentCounts(items),
    top_phrases: topCounts(phrases, 5),
    example_review_ids: items.slice(0, EXAMPLES).map((i) => i.review.id),
  };
}

function indexAspects(all: readonly Analysed[]): Map<string, AspectIndex> {
  const index = new Map<string, AspectIndex>();
  for (const { review, a } of all) {
    for (const hit of a.per.aspects) {
      let e = index.get(hit.aspect);
      if (!e) {
        e = { ids: { positive: [], neutral: [], negative: [] }, phrases: { positive: [], negative: [] }, examples: [] };
        index.set(hit.aspect, e);
      }
      e.ids[hit.polarity].push(review.id);
      if (e.examples.length < EXAMPLES) e.examples.push(review.id);
      if (hit.polarity !== 'neutral') e.phrases[hit.polarity].push(...hit.phrases);
    }
  }
  return index;
}

function aspectEntries(analyser: ReviewAnalyser, index: ReadonlyMap<string, AspectIndex>): AspectEntry[] {
  return analyser.analyser.aspects.map((def) => {
    const e = index.get(def.id);
    const positive = e?.ids.positive.length ?? 0;
    const neutral = e?.ids.neutral.length ?? 0;
    const negative = e?.ids.negative.length ?? 0;
    const phrases = e ? [...e.phrases.positive, ...e.phrases.negative] : [];
    const mentions = positive + neutral + negative;
    return {
      id: def.id,
      label: def.label,
      mention_count: mentions,
      positive_count: positive,
      neutral_count: neutral,
      negative_count: negative,
      positive_pct: pct(positive, mentions),
      score: mentions ? round2((positive - negative) / mentions) : 0,
      top_phrases: topCounts(phrases, 5),
      example_review_ids: e ? e.examples : [],
    };
  });
}

/**
 * The insights document for a business and its reviews (newest first). Pure and
 * deterministic: the same input gives the same bytes; `generatedAt` is passed in.
 */
export function buildInsights(business: Business, reviews: readonly Review[], generatedAt: string, cache = new AnalysisCache()): Insights {
  const analyser = new ReviewAnalyser(business);
  const all: Analysed[] = reviews.map((review) => ({ review, a: cache.get(analyser, review) }));
  cache.retain(new Set(reviews.map((r) => r.id)));

  const overall = sentimentCounts(all);
  const aspectIndex = indexAspects(all);
  const aspects = aspectEntries(analyser, aspectIndex);

  // One pass: which reviews name which entity, so each entity's stats read only its own reviews.
  const named = new Map<string, Analysed[]>();
  const note = (key: string, x: Analysed) => {
    const list = named.get(key);
    if (list) list.push(x);
    else named.set(key, [x]);
  };
  for (const x of all) {
    for (const t of x.a.per.technicians) note(`t:${t}`, x);
    for (const id of x.a.per.services) note(`s:${id}`, x);
    for (const id of x.a.per.problems) note(`p:${id}`, x);
    for (const c of x.a.candidates) note(`c:${c}`, x);
    for (const area of x.a.areas) note(`a:${area}`, x);
  }
  const entityStats = (key: string, phrasesOf: (x: Analysed) => readonly string[]) => statsOf(named.get(key) ?? [], phrasesOf);

  const technicians = analyser.matchers.technicians.map((t) => ({
    name: t.name,
    aliases: t.aliases,
    on_roster: true,
    ...entityStats(`t:${t.name}`, (x) => entityPhrasesOf(x.a, `t:${t.name}`)),
  }));
  // Names in a technician's role, seen in at least two reviews, not on the roster.
  for (const name of topCounts(all.flatMap((x) => x.a.candidates), 20)) {
    const re = wholeWordMatcher([name])!;
    const stats = entityStats(
      `c:${name}`,
      (x) => x.a.sentences.filter((s) => re.test(s.text)).flatMap((s) => s.aspects.filter((h) => h.polarity !== 'neutral').flatMap((h) => h.phrases)),
    );
    if (stats.mention_count >= 2) technicians.push({ name, aliases: [], on_roster: false, ...stats });
  }
  technicians.sort((x, y) => y.mention_count - x.mention_count || (x.name < y.name ? -1 : 1));

  const services = analyser.matchers.services
    .map((s) => ({ id: s.id, label: s.label, ...entityStats(`s:${s.id}`, (x) => entityPhrasesOf(x.a, `s:${s.id}`)) }))
    .sort((x, y) => y.mention_count - x.mention_count || (x.id < y.id ? -1 : 1));
  const problems = analyser.matchers.problems
    .map((p) => ({ id: p.id, label: p.label, ...entityStats(`p:${p.id}`, (x) => entityPhrasesOf(x.a, `p:${p.id}`)) }))
    .filter((p) => p.mention_count > 0)
    .sort((x, y) => y.mention_count - x.mention_count || (x.id < y.id ? -1 : 1));
  const serviceAreas = analyser.matchers.areas
    .map((area) => {
      const hits = named.get(`a:${area.name}`) ?? [];
      return { name: area.name, mention_count: hits.length, example_review_ids: hits.slice(0, EXAMPLES).map((h) => h.review.id) };
    })
    .sort((x, y) => y.mention_count - x.mention_count || (x.name < y.name ? -1 : 1));

  const monthly = monthlyFigures(all);
  const trend = trendOf(all);
  const perReview: Record<string, PerReview> = {};
  for (const { review, a } of all) perReview[review.id] = a.per;
  const dates = reviews.map((r) => r.date).sort();
  const figures: Figures = { business, all, aspects, aspectIndex, technicians, services, trend, overall, averageRating: meanRating(reviews.map((r) => r.rating)) };

  return {
    version: TAXONOMY_VERSION,
    generated_at: generatedAt,
    model: MODEL_NAME,
    review_count: reviews.length,
    date_range: dates.length ? { earliest: dates[0]!, latest: dates[dates.length - 1]! } : null,
    overall_sentiment: {
      score: overall.score,
      positive_pct: pct(overall.positive, all.length),
      neutral_pct: pct(overall.neutral, all.length),
      negative_pct: pct(overall.negative, all.length),
    },
    aspects,
    entities: { technicians, services, problems, service_areas: serviceAreas },
    topics: topicsOf(all),
    temporal: { monthly, trend },
    per_review: perReview,
    faq: faqFor(figures),
    summary: summaryOf(figures),
    pull_quote: pullQuoteOf(all),
  };
}

