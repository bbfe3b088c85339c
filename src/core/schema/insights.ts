/** The insights document schema. */
import { z } from 'zod';
import { IsoDate } from './common.js';

const Pct = z.number().min(0).max(100).describe('Percentage, one decimal');
const Score = z.number().min(-1).max(1).describe('-1 (all negative) .. 1 (all positive)');
const Ids = z.array(z.string()).describe('Ids of reviews that show it (newest first, at most 5)');
const Polarity = z.enum(['positive', 'neutral', 'negative']);

const SentimentCountsSchema = z
  .object({ score: Score, positive: z.int().min(0), neutral: z.int().min(0), negative: z.int().min(0) })
  .meta({ id: 'SentimentCounts', description: 'How the reviews (or mentions) split by polarity' });

export const AspectEntrySchema = z
  .object({
    id: z.string().describe('Taxonomy id, e.g. punctuality'),
    label: z.string(),
    mention_count: z.int().min(0).describe('Reviews that mention the aspect'),
    positive_count: z.int().min(0),
    neutral_count: z.int().min(0),
    negative_count: z.int().min(0),
    positive_pct: Pct,
    score: Score.describe('(positive - negative) / mentions'),
    top_phrases: z.array(z.string()).describe('Most frequent words that carried the judgement'),
    example_review_ids: Ids,
  })
  .meta({ id: 'AspectEntry', description: 'Sentiment about one aspect of the service' });
export type AspectEntry = z.infer<typeof AspectEntrySchema>;

const EntityStats = {
  mention_count: z.int().min(0).describe('Reviews that name it'),
  average_rating: z.number().min(1).max(5).nullable().describe('Mean star rating of those reviews'),
  sentiment: SentimentCountsSchema,
  top_phrases: z.array(z.string()),
  example_review_ids: Ids,
};

export const TechnicianEntitySchema = z
  .object({
    name: z.string(),
    aliases: z.array(z.string()),
    on_roster: z.boolean().describe('False for names found only in reviews'),
    ...EntityStats,
  })
  .meta({ id: 'TechnicianEntity' });
export const ServiceEntitySchema = z.object({ id: z.string(), label: z.string(), ...EntityStats }).meta({ id: 'ServiceEntity' });
const ProblemEntitySchema = z.object({ id: z.string(), label: z.string(), ...EntityStats }).meta({ id: 'ProblemEntity' });
const AreaEntitySchema = z
  .object({ name: z.string(), mention_count: z.int().min(0), example_review_ids: Ids })
  .meta({ id: 'ServiceAreaEntity' });

const TopicSchema = z
  .object({ label: z.string(), review_count: z.int().min(0), sentiment: SentimentCountsSchema, example_review_ids: Ids })
  .meta({ id: 'Topic', description: 'A recurring phrase across reviews' });

const MonthSchema = z
  .object({
    month: z.string().regex(/^\d{4}-\d{2}$/),
    review_count: z.int().min(0),
    average_rating: z.number().nullable(),
    sentiment_score: Score,
  })
  .meta({ id: 'MonthlyFigures' });

const TrendSchema = z
  .object({
    direction: z.enum(['improving', 'stable', 'declining', 'insufficient_data']),
    rule: z.string().describe('How direction was decided'),
    recent_average_rating: z.number().nullable(),
    previous_average_rating: z.number().nullable(),
    recent_review_count: z.int().min(0),
    previous_review_count: z.int().min(0),
  })
  .meta({ id: 'Trend' });

export const PerReviewSchema = z
  .object({
    sentiment: Polarity,
    score: Score,
    /** From the text; rating-only reviews take their polarity from the stars. */
    basis: z.enum(['text', 'rating']),
    aspects: z.array(z.object({ aspect: z.string(), polarity: Polarity, phrases: z.array(z.string()) })),
    technicians: z.array(z.string()),
    services: z.array(z.string()),
    problems: z.array(z.string()),
  })
  .meta({ id: 'PerReviewAnalysis' });
export type PerReview = z.infer<typeof PerReviewSchema>;

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
  .object({ id: z.string(), question: z.string(), answer: z.string(), review_ids: Ids })
  .meta({ id: 'FaqEntry', description: 'A question a prospective customer asks, answered from the figures' });

export const PullQuoteSchema = z
  .object({ text: z.string(), review_id: z.string(), author: z.string(), rating: z.int(), date: IsoDate })
  .meta({ id: 'PullQuote', description: 'A sentence quoted verbatim from a review' });

export const InsightsSchema = z
  .object({
    version: z.int().describe('Bumped when the aspect taxonomy changes'),
    generated_at: z.string().describe('ISO 8601: when the data these insights reflect last changed'),
    model: z.string().describe('What produced the analysis (local and deterministic; no hosted model)'),
    review_count: z.int().min(0),
    date_range: z.object({ earliest: IsoDate, latest: IsoDate }).nullable(),
    overall_sentiment: z.object({ score: Score, positive_pct: Pct, neutral_pct: Pct, negative_pct: Pct }),
    aspects: z.array(AspectEntrySchema),
    entities: z.object({
      technicians: z.array(TechnicianEntitySchema),
      services: z.array(ServiceEntitySchema),
      problems: z.array(ProblemEntitySchema),
      service_areas: z.array(AreaEntitySchema),
    }),
    topics: z.array(TopicSchema),
    temporal: z.object({ monthly: z.array(MonthSchema), trend: TrendSchema }),
    per_review: z.record(z.string(), PerReviewSchema),
    faq: z.array(FaqEntrySchema),
    summary: z.string().nullable().describe('Editorial prose made from the figures; null with no reviews'),
    pull_quote: PullQuoteSchema.nullable(),
  })
  .meta({ id: 'Insights', description: 'Aspect-based sentiment insights over all reviews, as served at /insights.json' });
export type Insights = z.infer<typeof InsightsSchema>;
