/** Search and since: the query, path and result schemas. */
import { z } from 'zod';
import { IsoDate, IsoDateParam } from './common.js';
import { PublishedReviewSchema, type Review } from './review.js';

/** true or false, as JSON booleans; the query-string face reads the words "true" and "false" (fromQueryString). */
const Flag = z.boolean({ error: 'must be true or false' });

export const SearchSort = z.enum(['newest', 'oldest', 'highest', 'lowest'], { error: 'must be newest, oldest, highest or lowest' });
export type SearchSort = z.infer<typeof SearchSort>;

/**
 * The search filters: one definition for GET /api/reviews/search and the MCP search_reviews
 * tool. Typed as JSON (MCP arguments are JSON: a number must be a number); the query-string
 * face reads decimal text as numbers (fromQueryString in query-string.ts). Each field has one
 * plain message for whatever is wrong with it (type, range or length), said after its name.
 */
export const SearchQuerySchema = z
  .strictObject({
    rating: z.number({ error: 'must be a whole number from 1 to 5' }).int().min(1).max(5).optional().describe('Exact star rating to match (1-5)'),
    min_rating: z.number({ error: 'must be a number from 1 to 5, e.g. 4 or 4.5' }).min(1).max(5).optional().describe('Minimum star rating, inclusive (1-5)'),
    since: IsoDateParam.optional().describe('Only reviews dated on or after this date (YYYY-MM-DD)'),
    until: IsoDateParam.optional().describe('Only reviews dated on or before this date (YYYY-MM-DD)'),
    query: z.string({ error: 'must be 1 to 200 characters of text' }).min(1).max(200).optional().describe('Case-insensitive substring of the review text'),
    mentions_technician: z
      .string({ error: "must be a technician's name or alias, 1 to 100 characters" })
      .min(1)
      .max(100)
      .optional()
      .describe("Only reviews naming this technician (name or alias, matched as a whole word)"),
    mentions_service: z
      .string({ error: 'must be a service id, label or alias, 1 to 100 characters' })
      .min(1)
      .max(100)
      .optional()
      .describe('Only reviews mentioning this service (service id, label or alias)'),
    limit: z.number({ error: 'must be a whole number from 1 to 100' }).int().min(1).max(100).default(20).describe('Maximum number of reviews returned (1-100)'),
    with_text: Flag.optional().describe('true: only reviews with written text; false: only rating-only reviews'),
    with_reply: Flag.optional().describe("true: only reviews the business has replied to; false: only those without a reply"),
    sort: SearchSort.default('newest').describe(
      'Order of the results: newest (date, newest first; the default), oldest (date, oldest first), highest or lowest (star rating, then newest first). Ties are broken by review id, so the order is total.',
    ),
    cursor: z
      .string({ error: 'must be the next_cursor of an earlier answer, as given' })
      .min(1)
      .max(512)
      .optional()
      .describe(
        'Opaque next_cursor from the previous page of the same search (same filters and sort; limit may change). Valid while the data does not change; after an import it is refused with 400 and the search starts again from the first page.',
      ),
  })
  .refine((q) => q.since === undefined || q.until === undefined || q.since <= q.until, {
    message: 'since must not be after until',
    path: ['until'],
  });
export type SearchQuery = z.infer<typeof SearchQuerySchema>;
/** A search as code states it: the sort may be left to its default. */
export type SearchRequest = Omit<SearchQuery, 'sort'> & {
  sort?: SearchSort;
  /** Only reviews from this source (e.g. "google"): the review widget's scope, not a parameter of the public search. */
  source?: string;
};

/** Said when a filter names no technician or service of the business profile: the search still ran, on the name as given. */
export const SearchNoticeSchema = z
  .object({
    parameter: z.enum(['mentions_technician', 'mentions_service']).describe('The parameter the notice is about'),
    message: z.string().describe('What was matched instead, and the names the business profile has'),
    known: z.array(z.string()).describe("What the parameter recognises: the roster's technician names, or the service ids"),
  })
  .meta({ id: 'SearchNotice', description: 'A filter value the business profile does not know, and what the search did with it' });
export type SearchNotice = z.infer<typeof SearchNoticeSchema>;

export const SearchResultSchema = z
  .object({
    matched: z.int().min(0).describe('How many reviews match all filters'),
    returned: z.int().min(0).describe('How many are in this response (at most limit)'),
    reviews: z.array(PublishedReviewSchema).describe('Matching reviews, in the order asked for by sort'),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as cursor (with the same filters and sort) for the next page; null when this page is the last'),
    notices: z
      .array(SearchNoticeSchema)
      .optional()
      .describe(
        'Present only when mentions_technician names no technician on the roster, or mentions_service no service of the profile: the search then matched the value as a whole word in the review text, without aliases, so few or no reviews may match. Lists the names that are known.',
      ),
  })
  .meta({ id: 'SearchResult', description: 'Reviews matching a search' });
export type SearchResult = z.infer<typeof SearchResultSchema>;
/** What the search finds: the stored reviews, before they are published with their permalinks. */
export type SearchHits = Omit<SearchResult, 'reviews'> & { reviews: Review[] };

export const SincePathSchema = z.strictObject({
  date: IsoDateParam.describe('Return reviews dated on or after this date (YYYY-MM-DD)'),
});

/** The since endpoint takes no query parameters; any is refused by name, as search refuses those it does not know, never ignored (a `limit` would seem to page). */
export const SinceQuerySchema = z.strictObject({});

export const SinceResultSchema = z
  .object({
    since: IsoDate.describe('The date asked for'),
    count: z.int().min(0).describe('Number of reviews returned'),
    reviews: z.array(PublishedReviewSchema).describe('Reviews dated on or after since, newest first'),
  })
  .meta({ id: 'SinceResult', description: 'Reviews dated on or after a date' });
export type SinceResult = z.infer<typeof SinceResultSchema>;

/** The MCP tool get_reviews_since answers at most this many reviews (a model's context is not a download). */
export const SINCE_TOOL_LIMIT = { default: 20, max: 100 } as const;

/**
 * The reviews of one MCP tool answer (search_reviews, get_reviews_since) stop at about this many
 * bytes of JSON, whatever the limit: 100 reviews of 20,000 characters would otherwise be 2 MB of
 * a model's context. The rest is a next_cursor away.
 */
export const TOOL_ANSWER_MAX_BYTES = 256 * 1024;
/** With short_texts, a text longer than this many characters is cut (at a word boundary). */
export const SHORT_TEXT_CHARS = 400;

const CAP = `An answer stops at about ${TOOL_ANSWER_MAX_BYTES / 1024} KB of reviews even below limit; next_cursor continues from there.`;

const ShortTexts = Flag.optional().describe(
  `true: texts longer than ${SHORT_TEXT_CHARS} characters are cut at a word boundary and marked text_shortened, so more reviews fit an answer; get_review {id} has the whole text`,
);

/** A review in an MCP tool answer: as published (permalink url, source_url), its text possibly shortened on request. */
export const ToolReviewSchema = PublishedReviewSchema.extend({
  text_shortened: z.literal(true).optional().describe('Present (true) when short_texts cut the text; get_review {id} has it whole'),
});
export type ToolReview = z.infer<typeof ToolReviewSchema>;

/** An old or altered cursor, over MCP: a result with isError, after which the caller starts again itself. */
const TOOL_CURSOR_REFUSED = 'Once the data changes (an import) it is refused with an isError result, as is a garbled or altered one: call again without cursor to start from the first page.';

/** The MCP tool search_reviews: the HTTP search's parameters, and short_texts. */
export const SearchToolQuerySchema = SearchQuerySchema.safeExtend({
  limit: SearchQuerySchema.shape.limit.describe(`Maximum number of reviews returned (1-100). ${CAP}`),
  cursor: SearchQuerySchema.shape.cursor.describe(`Opaque next_cursor from the previous answer of the same search (same filters and sort; limit may change). ${TOOL_CURSOR_REFUSED}`),
  short_texts: ShortTexts,
});

export const SearchToolResultSchema = SearchResultSchema.extend({
  reviews: z.array(ToolReviewSchema).describe('Matching reviews, in the order asked for by sort'),
  next_cursor: SearchResultSchema.shape.next_cursor.describe('Pass as cursor (with the same filters and sort) for the next page; null when this page is the last. Also set when the size cap cut the page short.'),
});

/** The MCP tool get_reviews_since: a date, a limit, a cursor for the next page, and short_texts. */
export const SinceToolQuerySchema = z.strictObject({
  date: IsoDateParam.describe('First day to include, YYYY-MM-DD'),
  limit: z
    .number({ error: `must be a whole number from 1 to ${SINCE_TOOL_LIMIT.max}` })
    .int()
    .min(1)
    .max(SINCE_TOOL_LIMIT.max)
    .default(SINCE_TOOL_LIMIT.default)
    .describe(`Maximum number of reviews returned (1-${SINCE_TOOL_LIMIT.max}, default ${SINCE_TOOL_LIMIT.default}); the newest come first. ${CAP}`),
  cursor: SearchQuerySchema.shape.cursor.describe(`Opaque next_cursor from the previous answer for the same date (limit may change). ${TOOL_CURSOR_REFUSED}`),
  short_texts: ShortTexts,
});

/** Its answer: a page of the reviews since the date, how many there are in all, and the cursor of the next page. */
export const SinceToolResultSchema = z.object({
  since: IsoDate.describe('The date asked for'),
  count: z.int().min(0).describe('Number of reviews returned (at most limit)'),
  matched: z.int().min(0).describe('How many reviews are dated on or after since; more than count when the answer is one page of several'),
  reviews: z.array(ToolReviewSchema).describe('Reviews dated on or after since, newest first'),
  next_cursor: z.string().nullable().describe('Pass as cursor, with the same date, for the next page; null when this page is the last'),
});
export type SinceToolResult = z.infer<typeof SinceToolResultSchema>;
