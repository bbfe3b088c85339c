/** The MCP tools: each one's argument and result schemas, its description, and its answer over a snapshot. */
import { z } from 'zod';
import { InvalidCursor, findService, findTechnician, searchReviews, serviceChoices, technicianChoices, type PageBudget } from '../core/search.js';
import { BusinessSchema } from '../core/schema/business.js';
import { AggregateRatingSchema } from '../core/schema/dataset.js';
import {
  AspectEntrySchema,
  AspectEvidenceSchema,
  FaqEntrySchema,
  InsightsSchema,
  PerReviewSchema,
  PullQuoteSchema,
  ServiceEntitySchema,
  TechnicianEntitySchema,
} from '../core/schema/insights.js';
import { publishReview } from '../core/reviews.js';
import { PublishedReviewSchema, type PublishedReview, type Review } from '../core/schema/review.js';
import {
  SearchToolQuerySchema,
  SearchToolResultSchema,
  SHORT_TEXT_CHARS,
  SINCE_TOOL_LIMIT,
  SinceToolQuerySchema,
  SinceToolResultSchema,
  TOOL_ANSWER_MAX_BYTES,
  type SearchRequest,
  type ToolReview,
} from '../core/schema/search.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** A tool's answer when the arguments name nothing that exists: said plainly, with the valid choices. */
export class ToolFailure {
  constructor(readonly message: string) {}
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  run(args: never, snap: Snapshot, baseUrl: string): unknown;
}

/** A result as a tool may give it: only serialised, so values kept read-only (a review's kept analysis) are fine. */
type DeepReadonly<T> = T extends (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** Keeps each tool's argument and result types tied to its schemas. */
function tool<I extends z.ZodObject, O extends z.ZodObject>(def: {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(args: z.output<I>, snap: Snapshot, baseUrl: string): DeepReadonly<z.input<O>> | ToolFailure;
}): ToolDef {
  return def as unknown as ToolDef;
}

const NoArgs = z.strictObject({});
const norm = (s: string) => s.trim().toLowerCase();
const byIds = (snap: Snapshot, ids: readonly string[], baseUrl: string): PublishedReview[] => {
  const set = new Set(ids);
  return snap.index.reviews.filter((r) => set.has(r.id)).map((r) => publishReview(r, baseUrl));
};

/** A review as a tool answers it: published, its text cut at a word boundary when short_texts asks and it is long. */
function toolReview(r: Review, baseUrl: string, short: boolean): ToolReview {
  const published = publishReview(r, baseUrl);
  if (!short || published.text === null || published.text.length <= SHORT_TEXT_CHARS) return published;
  const cut = published.text.slice(0, SHORT_TEXT_CHARS);
  const end = cut.lastIndexOf(' ');
  return { ...published, text: `${(end > SHORT_TEXT_CHARS / 2 ? cut.slice(0, end) : cut).trimEnd()} …`, text_shortened: true };
}

/**
 * One page of a search as a tool answers it: at most `limit` reviews and about
 * TOOL_ANSWER_MAX_BYTES of them, each with its permalink, the rest a next_cursor away.
 */
function toolPage(snap: Snapshot, q: SearchRequest, baseUrl: string, short: boolean) {
  // Each review is shaped once: weighed for the budget, then the same object answered.
  const shaped = new Map<Review, ToolReview>();
  const shape = (r: Review): ToolReview => {
    let t = shaped.get(r);
    if (!t) shaped.set(r, (t = toolReview(r, baseUrl, short)));
    return t;
  };
  const budget: PageBudget = { maxBytes: TOOL_ANSWER_MAX_BYTES, weigh: (r) => Buffer.byteLength(JSON.stringify(shape(r))) };
  const hits = searchReviews(snap.index, q, budget);
  return { ...hits, returned: hits.reviews.length, reviews: hits.reviews.map(shape) };
}

const invalidCursor = (e: unknown) => {
  if (e instanceof InvalidCursor) return new ToolFailure(`Invalid cursor: ${e.message}.`);
  throw e;
};

export const TOOLS: ToolDef[] = [
  tool({
    name: 'get_business',
    title: 'Business profile',
    description:
      'Who the business is: name, description, contact, address, opening hours, service areas, services, technicians, and the aggregate star rating with review count. Use first, or whenever the user asks about the business itself rather than what reviews say.',
    input: NoArgs,
    output: z.object({ business: BusinessSchema, aggregate_rating: AggregateRatingSchema }),
    run: (_args, snap) => ({ business: snap.business, aggregate_rating: snap.aggregate }),
  }),
  tool({
    name: 'search_reviews',
    title: 'Search reviews',
    description:
      `Find reviews by star rating, date range, text, technician or service; all filters combine. Use to quote or count what customers said about something specific. Returns { matched, returned, reviews, next_cursor }: newest first unless sort says oldest, highest or lowest; matched counts every match, returned what limit let through. For more, call again with the same filters and sort plus cursor: next_cursor (null on the last page). An answer holds at most limit reviews and about ${TOOL_ANSWER_MAX_BYTES / 1024} KB of them; short_texts fits more. Each review carries url (its permalink, to cite) and source_url (the original, or null). A mentions_technician or mentions_service the business profile does not know is matched as a plain word, and the answer then carries notices with the names it does know: check them before saying nobody mentioned someone. Same arguments as GET /api/reviews/search, plus short_texts.`,
    input: SearchToolQuerySchema,
    output: SearchToolResultSchema,
    run: ({ short_texts, ...q }, snap, baseUrl) => {
      try {
        return toolPage(snap, q, baseUrl, short_texts === true);
      } catch (e) {
        return invalidCursor(e);
      }
    },
  }),
  tool({
    name: 'get_review',
    title: 'One review',
    description:
      'A single review by its id (as returned by other tools), with its per-review analysis (sentiment and the aspects it mentions) and the evidence: each sentence an aspect judgement rests on, with that aspect and polarity.',
    input: z.strictObject({ id: z.string({ error: 'must be a review id, as search_reviews and get_reviews_since give it' }).min(1).describe('Review id (ULID), e.g. from search_reviews') }),
    output: z.object({ review: PublishedReviewSchema, analysis: PerReviewSchema, evidence: z.array(AspectEvidenceSchema) }),
    run: ({ id }, snap, baseUrl) => {
      const review = snap.review(id.trim().toUpperCase());
      if (!review) return new ToolFailure(`No review has id "${id}". Ids come from search_reviews or get_reviews_since.`);
      // One reading of the text for both: the analysis (the insights' per_review entry) and its evidence.
      const { per, evidence } = snap.analyser().withEvidence(review);
      return { review: publishReview(review, baseUrl), analysis: per, evidence };
    },
  }),
  tool({
    name: 'get_reviews_since',
    title: 'Reviews since a date',
    description: `Reviews dated on or after a date, newest first, a page at a time: at most limit of them (default ${SINCE_TOOL_LIMIT.default}, at most ${SINCE_TOOL_LIMIT.max}) and about ${TOOL_ANSWER_MAX_BYTES / 1024} KB, with matched counting all there are. For the next page call again with the same date and cursor: next_cursor (null on the last page). Use for "what is new since ..." questions; to filter as well, use search_reviews with since.`,
    input: SinceToolQuerySchema,
    output: SinceToolResultSchema,
    run: ({ date, limit, cursor, short_texts }, snap, baseUrl) => {
      try {
        const page = toolPage(snap, { since: date, limit, ...(cursor === undefined ? {} : { cursor }) }, baseUrl, short_texts === true);
        return { since: date, count: page.returned, matched: page.matched, reviews: page.reviews, next_cursor: page.next_cursor };
      } catch (e) {
        return invalidCursor(e);
      }
    },
  }),
  tool({
    name: 'list_aspects',
    title: 'All aspects at a glance',
    description:
      'Every aspect of the service customers judge (punctuality, pricing, communication, professionalism, quality of work, technical knowledge, cleanliness, scheduling, customer service, warranty, plus any the business added) with mentions and share positive. Use to see strengths and weaknesses, then get_aspect_sentiment for detail.',
    input: NoArgs,
    output: z.object({
      aspects: z.array(z.object({ id: z.string(), label: z.string(), mention_count: z.int(), positive_pct: z.number(), negative_count: z.int(), score: z.number() })),
    }),
    run: (_args, snap) => ({
      aspects: snap.insights().aspects.map(({ id, label, mention_count, positive_pct, negative_count, score }) => ({ id, label, mention_count, positive_pct, negative_count, score })),
    }),
  }),
  tool({
    name: 'get_aspect_sentiment',
    title: 'Sentiment about one aspect',
    description:
      'What customers say about one aspect: positive, neutral and negative counts, share positive, score, the phrases they use and example review ids. Use for questions like "are they on time?" or "are prices fair?".',
    input: z.strictObject({
      aspect: z
        .string({ error: 'must be an aspect id or label, e.g. "punctuality"; list_aspects has them all' })
        .min(1)
        .describe('Aspect id or label, e.g. "punctuality" or "Pricing and value"; list_aspects has them all'),
    }),
    output: AspectEntrySchema,
    run: ({ aspect }, snap) => {
      const all = snap.insights().aspects;
      const hit = all.find((a) => a.id === norm(aspect) || norm(a.label) === norm(aspect));
      return hit ?? new ToolFailure(`Unknown aspect "${aspect}". Valid aspects: ${all.map((a) => `${a.id} (${a.label})`).join(', ')}.`);
    },
  }),
  tool({
    name: 'get_technician',
    title: 'A technician in reviews',
    description:
      'How customers rate one technician: reviews naming them, average rating, sentiment, the words used about them, and their most recent reviews. Accepts a name or alias. Use for "who should I ask for?" or "what do people say about Marco?".',
    input: z.strictObject({ name: z.string({ error: "must be a technician's name or alias, as customers write it" }).min(1).describe('Technician name or alias as customers write it') }),
    output: z.object({ technician: TechnicianEntitySchema, recent_reviews: z.array(PublishedReviewSchema) }),
    run: ({ name }, snap, baseUrl) => {
      const techs = snap.insights().entities.technicians;
      const hit = findTechnician(techs, name);
      if (!hit) return new ToolFailure(`No technician called "${name}" appears in the reviews. Valid names: ${technicianChoices(techs)}.`);
      return { technician: hit, recent_reviews: byIds(snap, hit.example_review_ids, baseUrl) };
    },
  }),
  tool({
    name: 'get_service',
    title: 'A service in reviews',
    description: 'How customers rate one service the business offers (by id, label or alias): reviews mentioning it, average rating, sentiment, phrases and recent reviews.',
    input: z.strictObject({
      service: z.string({ error: 'must be a service id, label or alias, e.g. "ac_repair"' }).min(1).describe('Service id, label or alias, e.g. "ac_repair" or "air conditioning"'),
    }),
    output: z.object({ service: ServiceEntitySchema, recent_reviews: z.array(PublishedReviewSchema) }),
    run: ({ service }, snap, baseUrl) => {
      const catalog = snap.business.services;
      const def = findService(catalog, service);
      const entry = def && snap.insights().entities.services.find((s) => s.id === def.id);
      if (!entry) {
        return new ToolFailure(`Unknown service "${service}". Valid services: ${serviceChoices(catalog)}.`);
      }
      return { service: entry, recent_reviews: byIds(snap, entry.example_review_ids, baseUrl) };
    },
  }),
  tool({
    name: 'get_trends',
    title: 'Ratings over time',
    description: 'Monthly review counts, average ratings and sentiment, and whether ratings are improving, stable or declining (with the rule used). Use for "are they getting better?".',
    input: NoArgs,
    output: InsightsSchema.shape.temporal,
    run: (_args, snap) => snap.insights().temporal,
  }),
  tool({
    name: 'get_faq',
    title: 'Frequently asked questions',
    description: 'Answers to what prospective customers ask (on time? fair prices? best technician? complaints?), each grounded in figures with the ids of supporting reviews.',
    input: NoArgs,
    output: z.object({ faq: z.array(FaqEntrySchema) }),
    run: (_args, snap) => ({ faq: snap.insights().faq }),
  }),
  tool({
    name: 'get_summary',
    title: 'Summary of all reviews',
    description: 'A short, honest summary of all reviews made from the figures, a representative quote, and the overall sentiment. Use for "what do people think of this business?".',
    input: NoArgs,
    output: z.object({
      summary: z.string().nullable(),
      pull_quote: PullQuoteSchema.nullable(),
      overall_sentiment: InsightsSchema.shape.overall_sentiment,
      review_count: z.int(),
      aggregate_rating: AggregateRatingSchema,
    }),
    run: (_args, snap) => {
      const i = snap.insights();
      return { summary: i.summary, pull_quote: i.pull_quote, overall_sentiment: i.overall_sentiment, review_count: i.review_count, aggregate_rating: snap.aggregate };
    },
  }),
];
