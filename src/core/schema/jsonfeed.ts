/** The JSON Feed 1.1 document schema, with the _reviewcast extension. */
import { z } from 'zod';
import { OwnerReplySchema } from './review.js';

const Author = z.object({ name: z.string(), url: z.string().optional(), avatar: z.string().optional() });

export const JsonFeedItemSchema = z
  .object({
    id: z.string().describe('Stable tag: URI of the review'),
    url: z.string().describe('Permalink of the review on this service ({BASE_URL}/reviews/{id})'),
    external_url: z.string().optional().describe('The original review elsewhere (its source_url), where there is one'),
    title: z.string().describe('Stars and author'),
    content_text: z.string().describe("The review text (or a note for rating-only reviews), then the owner's reply, if any"),
    date_published: z.string().describe('RFC 3339'),
    date_modified: z.string().describe('RFC 3339: the later of the review and its owner reply'),
    authors: z.array(Author),
    tags: z.array(z.string()),
    _reviewcast: z
      .object({
        about: z.string().describe('Where this extension is documented ({BASE_URL}/developers#reviewcast-extension)'),
        review_id: z.string(),
        rating: z.int().min(1).max(5),
        source: z.string(),
        verified: z.boolean(),
        owner_reply: OwnerReplySchema.nullable(),
      })
      .describe('Reviewcast extension: the review fields a feed item has no place for'),
  })
  .meta({ id: 'JsonFeedItem' });

export const JsonFeedSchema = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string().optional(),
    authors: z.array(Author),
    hubs: z.array(z.object({ type: z.literal('WebSub'), url: z.string() })),
    items: z.array(JsonFeedItemSchema).describe('The 50 newest reviews, newest first'),
  })
  .meta({ id: 'JsonFeed', description: 'JSON Feed 1.1 of the newest reviews' });
export type JsonFeed = z.infer<typeof JsonFeedSchema>;
