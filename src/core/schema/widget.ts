/** The review widget: one schema for its attributes, the /embed query and the /embed.json query and answer. */
import { z } from 'zod';
import { ReviewSchema, PublishedReviewSchema } from './review.js';
import { bareFlagsAreTrue } from './query-string.js';
import { SearchNoticeSchema, SearchSort } from './search.js';

/** true or false as JSON; the query-string face reads the words, and a bare flag as true (bareFlagsAreTrue), as the element reads a bare attribute. */
const Flag = z.boolean({ error: 'must be true or false' });

export const WIDGET_LAYOUTS = ['badge', 'carousel', 'list', 'summary'] as const;
/** Languages of the widget's own words (reviews stay as written). */
export const WIDGET_LANGS = ['en', 'de', 'fr', 'es'] as const;

/**
 * Every option of `<reviewcast-reviews>`, named as its attributes are; `/embed` takes the same
 * names as query parameters. The element sends the data options on to `/embed.json`, which
 * validates them with this schema too, so an attribute the server refuses is refused by name;
 * the others (lang, theme, live) the element checks itself with these values and messages
 * (public/widget.js; test/widget.test.ts holds the two equal).
 */
export const WidgetOptionsSchema = bareFlagsAreTrue(
  z.strictObject({
    layout: z
      .enum(WIDGET_LAYOUTS, { error: 'must be badge, carousel, list or summary' })
      .default('list')
      .describe('badge: stars, average and count, linked to the review page; carousel: one review at a time; list: reviews with "More"; summary: rating histogram and what customers mention'),
    'min-rating': z
      .number({ error: 'must be a whole number from 1 to 5' })
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('carousel and list: only reviews with at least this many stars (1-5); the widget says so ("Showing 4-star and higher reviews")'),
    source: ReviewSchema.shape.source.optional().describe('Only reviews from this source, e.g. google or website; counts and averages are then those of that source'),
    technician: z.string({ error: "must be a technician's name or alias, 1 to 100 characters" }).min(1).max(100).optional().describe('Only reviews naming this technician (name or alias); counts and averages are then those of those reviews'),
    service: z.string({ error: 'must be a service id, label or alias, 1 to 100 characters' }).min(1).max(100).optional().describe('Only reviews mentioning this service (id, label or alias); counts and averages are then those of those reviews'),
    limit: z.number({ error: 'must be a whole number from 1 to 20' }).int().min(1).max(20).default(5).describe('carousel: reviews to rotate through; list: reviews per page (1-20)'),
    'with-text': Flag.optional().describe('carousel and list: true shows only reviews with written text (the widget says so); false only rating-only reviews'),
    sort: SearchSort.default('newest').describe('carousel and list: newest, oldest, highest or lowest'),
    lang: z.enum(WIDGET_LANGS, { error: 'must be en, de, fr or es' }).default('en').describe("Language of the widget's own words and dates (en, de, fr, es); reviews are shown as written"),
    theme: z.enum(['auto', 'light', 'dark'], { error: 'must be auto, light or dark' }).default('auto').describe("auto follows the visitor's light or dark preference (prefers-color-scheme); light or dark fixes it"),
    live: Flag.default(false).describe("true: while the page is open, check for new reviews with conditional GETs, no more often than the answer's Cache-Control max-age allows"),
  }),
);
export type WidgetOptions = z.infer<typeof WidgetOptionsSchema>;

/** The options that choose the data; the rest only change how it is shown. */
export const WIDGET_DATA_OPTIONS = ['layout', 'min-rating', 'source', 'technician', 'service', 'limit', 'with-text', 'sort'] as const;

/** The query of GET /embed.json: the widget's data options and, for the next page of a list, the cursor. */
export const WidgetDataQuerySchema = bareFlagsAreTrue(
  WidgetOptionsSchema.pick({
    layout: true,
    'min-rating': true,
    source: true,
    technician: true,
    service: true,
    limit: true,
    'with-text': true,
    sort: true,
  }).extend({
    cursor: z.string({ error: 'must be the next_cursor of an earlier answer, as given' }).min(1).max(512).optional().describe('next_cursor of the page before, with the same other parameters (list "More"); refused with invalid_cursor once the data changed'),
  }),
);
export type WidgetDataQuery = z.infer<typeof WidgetDataQuerySchema>;

const Count = z.int().min(0);

export const WidgetDataSchema = z
  .object({
    business: z
      .object({ name: z.string().describe("The business's name"), url: z.url().describe('The review page, filtered to the technician or service when one is given') })
      .describe('Whose reviews these are, and where to read them all'),
    rating: z
      .object({
        rating_value: z.number().min(1).max(5).nullable().describe('Mean star rating, two decimals; null with no reviews'),
        review_count: Count.describe('Every review in scope'),
        verified_count: Count.describe('Of those, how many come from a verified source'),
        distribution: z.object({ '1': Count, '2': Count, '3': Count, '4': Count, '5': Count }).describe('Reviews per star rating'),
      })
      .describe('The true figures of every review in scope (source, technician, service), whatever min-rating and with-text hide'),
    matched: Count.describe('Reviews passing every filter, min-rating and with-text included'),
    reviews: z.array(PublishedReviewSchema).describe('carousel and list: a page of the matching reviews, in the order sort names; empty for badge and summary'),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
    mentions: z
      .array(z.object({ id: z.string(), label: z.string(), mention_count: Count, positive_pct: z.number().min(0).max(100) }))
      .describe('summary: the aspects the reviews in scope mention most (at most 6), with the share of positive mentions; empty for other layouts'),
    notices: z
      .array(SearchNoticeSchema)
      .optional()
      .describe(
        'Present only when technician names no technician on the roster, or service no service of the profile (the search API\'s notices): the scope is then the reviews naming that value as written. The widget writes them to the browser console, for whoever embeds it.',
      ),
  })
  .meta({ id: 'WidgetData', description: 'What the review widget shows: the true figures in scope, a page of reviews and what customers mention' });
export type WidgetData = z.infer<typeof WidgetDataSchema>;
