/** The insights document schema. */
import { z } from 'zod';
import { IsoDate } from './common.js';
import { BUILTIN_ASPECTS } from '../insights/taxonomy.js';

const Pct = z.number().min(0).max(100).describe('Percentage, one decimal');
const Score = z.number().min(-1).max(1).describe('-1 (all negative) .. 1 (all positive)');
const Ids = z.array(z.string()).describe('Ids of reviews that show it (newest first, at most 5)');
const Polarity = z.enum(['positive', 'neutral', 'negative']).describe('Positive, neutral or negative');
const Count = (what: string) => z.int().min(0).describe(what);
const Phrases = z.array(z.string()).describe('Most frequent words that carried the judgement');

const SentimentCountsSchema = z
  .object({ score: Score, positive: Count('Positive ones'), neutral: Count('Neutral ones'), negative: Count('Negative ones') })
  .meta({ id: 'SentimentCounts', description: 'How the reviews (or mentions) split by polarity' });

export const AspectEntrySchema = z
  .object({
    id: z.string().describe('Taxonomy id, e.g. punctuality'),
    label: z.string().describe('Display name, e.g. Punctuality'),
    mention_count: z.int().min(0).describe('Reviews that mention the aspect'),
    positive_count: Count('Mentions judged positive'),
    neutral_count: Count('Mentions judged neutral'),
    negative_count: Count('Mentions judged negative'),
    positive_pct: Pct,
    score: Score.describe('(positive - negative) / mentions'),
    top_phrases: Phrases,
    example_review_ids: Ids,
  })
  .meta({ id: 'AspectEntry', description: 'Sentiment about one aspect of the service' });
export type AspectEntry = z.infer<typeof AspectEntrySchema>;

const EntityStats = {
  mention_count: z.int().min(0).describe('Reviews that name it'),
  average_rating: z.number().min(1).max(5).nullable().describe('Mean star rating of those reviews'),
  sentiment: SentimentCountsSchema.describe('How those reviews split by polarity'),
  top_phrases: Phrases,
  example_review_ids: Ids,
};

export const TechnicianEntitySchema = z
  .object({
    name: z.string().describe('Name as on the roster (or as found in reviews)'),
    aliases: z.array(z.string()).describe('Other names that count as this technician'),
    on_roster: z.boolean().describe('False for names found only in reviews'),
    ...EntityStats,
  })
  .meta({ id: 'TechnicianEntity', description: 'A technician customers name, and what they say about them' });
export const ServiceEntitySchema = z
  .object({ id: z.string().describe('Service id from the business profile'), label: z.string().describe('Display name'), ...EntityStats })
  .meta({ id: 'ServiceEntity', description: 'A service customers mention, and what they say about it' });
const ProblemEntitySchema = z
  .object({ id: z.string().describe('Problem id, e.g. no_heat'), label: z.string().describe('Display name'), ...EntityStats })
  .meta({ id: 'ProblemEntity', description: 'A problem customers called about' });
const AreaEntitySchema = z
  .object({ name: z.string().describe('Town or district from service_areas'), mention_count: Count('Reviews that name it'), example_review_ids: Ids })
  .meta({ id: 'ServiceAreaEntity', description: 'A served area customers name' });

const TopicSchema = z
  .object({
    label: z.string().describe('The phrase'),
    review_count: Count('Reviews that use it'),
    sentiment: SentimentCountsSchema.describe('How those reviews split by polarity'),
    example_review_ids: Ids,
  })
  .meta({ id: 'Topic', description: 'A recurring phrase across reviews' });

const MonthSchema = z
  .object({
    month: z.string().regex(/^\d{4}-\d{2}$/).describe('Calendar month, YYYY-MM'),
    review_count: Count('Reviews dated in the month'),
    average_rating: z.number().nullable().describe('Mean star rating of those reviews; null with none'),
    sentiment_score: Score,
  })
  .meta({ id: 'MonthlyFigures', description: 'Figures for one calendar month' });

const TrendSchema = z
  .object({
    direction: z.enum(['improving', 'stable', 'declining', 'insufficient_data']).describe('Where the mean rating is heading'),
    rule: z.string().describe('How direction was decided'),
    recent_average_rating: z.number().nullable().describe('Mean rating of the recent period; null with no reviews in it'),
    previous_average_rating: z.number().nullable().describe('Mean rating of the period before; null with no reviews in it'),
    recent_review_count: Count('Reviews in the recent period'),
    previous_review_count: Count('Reviews in the period before'),
  })
  .meta({ id: 'Trend', description: 'Recent ratings against those before them' });

export const PerReviewSchema = z
  .object({
    sentiment: Polarity.describe('Polarity of the review as a whole'),
    score: Score,
    basis: z.enum(['text', 'rating']).describe('text: judged from the text; rating: a rating-only review, judged from its stars'),
    aspects: z
      .array(z.object({ aspect: z.string().describe('Aspect id'), polarity: Polarity, phrases: z.array(z.string()).describe('Words that carried the judgement') }))
      .describe('Each aspect the review mentions and how it judges it'),
    technicians: z.array(z.string()).describe('Technicians it names'),
    services: z.array(z.string()).describe('Service ids it mentions'),
    problems: z.array(z.string()).describe('Problem ids it mentions'),
  })
  .meta({ id: 'PerReviewAnalysis', description: 'The analysis of one review' });
/** One review's analysis as the analyser makes and keeps it: frozen, so read-only all the way down. */
export type PerReview = Readonly<Omit<z.infer<typeof PerReviewSchema>, 'aspects' | 'technicians' | 'services' | 'problems'>> & {
  readonly aspects: readonly Readonly<{ aspect: string; polarity: z.infer<typeof Polarity>; phrases: readonly string[] }>[];
  readonly technicians: readonly string[];
  readonly services: readonly string[];
  readonly problems: readonly string[];
};

export const AspectEvidenceSchema = z
  .object({
    sentence: z.string().describe('The sentence of the review the judgement rests on'),
    aspect: z.string().describe('Aspect id'),
    polarity: Polarity,
  })
  // No component id: only MCP's get_review returns it, so the OpenAPI document would list it unused.
  .describe('One per-review aspect judgement and the sentence it rests on');
export type AspectEvidence = z.infer<typeof AspectEvidenceSchema>;

export const FaqEntrySchema = z
  .object({ id: z.string().describe('Stable question id'), question: z.string().describe('The question'), answer: z.string().describe('The answer, from the figures'), review_ids: Ids })
  .meta({ id: 'FaqEntry', description: 'A question a prospective customer asks, answered from the figures' });

export const PullQuoteSchema = z
  .object({
    text: z.string().describe('The quoted sentence'),
    review_id: z.string().describe('Id of the review it comes from'),
    author: z.string().describe('Author of that review'),
    rating: z.int().describe('Star rating of that review'),
    date: IsoDate.describe('Date of that review'),
  })
  .meta({ id: 'PullQuote', description: 'A sentence quoted verbatim from a review' });

export const InsightsSchema = z
  .object({
    version: z.int().describe('Bumped when the aspect taxonomy changes'),
    generated_at: z.string().describe('ISO 8601: when the data these insights reflect last changed'),
    model: z.string().describe('What produced the analysis (local and deterministic; no hosted model)'),
    review_count: Count('Reviews analysed (all published reviews)'),
    date_range: z
      .object({ earliest: IsoDate.describe('Date of the oldest review'), latest: IsoDate.describe('Date of the newest review') })
      .nullable()
      .describe('Dates of the oldest and newest review; null with no reviews'),
    overall_sentiment: z
      .object({ score: Score, positive_pct: Pct, neutral_pct: Pct, negative_pct: Pct })
      .describe('How all reviews split by polarity'),
    aspects: z
      .array(AspectEntrySchema)
      .describe(
        `Every aspect of the taxonomy, in its fixed order (${BUILTIN_ASPECTS.map((a) => a.id).join(', ')}), then the business profile's custom_aspects in the profile's order. Not sorted by mentions: an aspect no review mentions is listed with mention_count 0; sort by mention_count for the most mentioned first.`,
      ),
    entities: z
      .object({
        technicians: z.array(TechnicianEntitySchema).describe('Technicians customers name'),
        services: z.array(ServiceEntitySchema).describe('Services customers mention'),
        problems: z.array(ProblemEntitySchema).describe('Problems customers called about'),
        service_areas: z.array(AreaEntitySchema).describe('Served areas customers name'),
      })
      .describe('Technicians, services, problems and areas the reviews name'),
    topics: z.array(TopicSchema).describe('Recurring phrases across reviews'),
    temporal: z
      .object({ monthly: z.array(MonthSchema).describe('One entry per month, oldest first'), trend: TrendSchema.describe('Where the ratings are heading') })
      .describe('Figures over time'),
    per_review: z.record(z.string(), PerReviewSchema).describe('The analysis of each review, by review id'),
    faq: z.array(FaqEntrySchema).describe('Questions prospective customers ask, answered from the figures'),
    summary: z.string().nullable().describe('Editorial prose made from the figures; null with no reviews'),
    pull_quote: PullQuoteSchema.nullable().describe('A sentence quoted verbatim from a review; null when no review has one to quote'),
  })
  .meta({ id: 'Insights', description: 'Aspect-based sentiment insights over all reviews, as served at /insights.json' });
export type Insights = Omit<z.infer<typeof InsightsSchema>, 'per_review'> & { per_review: Record<string, PerReview> };
/** The insights document without per_review: what readers use whole (each review's analysis is looked up alone). */
export type InsightsOverview = Omit<Insights, 'per_review'>;
