/** The JSON Feed 1.1 document schema, with the _reviewcast extension. */
import { z } from 'zod';
import { OwnerReplySchema } from './review.js';

const Author = z.object({
  name: z.string().describe('Display name'),
  url: z.string().optional().describe('A page about the author'),
  avatar: z.string().optional().describe('URL of an avatar image'),
});

export const JsonFeedItemSchema = z
  .object({
    id: z.string().describe('Stable tag: URI of the review'),
    url: z.string().describe('Permalink of the review on this service ({BASE_URL}/reviews/{id})'),
    external_url: z.string().optional().describe('The original review elsewhere (its source_url), where there is one'),
    title: z.string().describe('Stars and author'),
    content_text: z.string().describe("The review text (or a note for rating-only reviews), then the owner's reply, if any"),
    date_published: z.string().describe('RFC 3339'),
    date_modified: z.string().describe('RFC 3339: the latest of the review\'s date, its owner reply\'s and the import that last changed what a reader sees of it'),
    authors: z.array(Author).describe('The reviewer'),
    tags: z.array(z.string()).describe('The star rating and the source, e.g. rating-5 and google'),
    _reviewcast: z
      .object({
        about: z.string().describe('Where this extension is documented ({BASE_URL}/developers#reviewcast-extension)'),
        review_id: z.string().describe('The review id (ULID), as in the API'),
        rating: z.int().min(1).max(5).describe('Star rating, 1 to 5'),
        source: z.string().describe('Where the review comes from, e.g. "google"'),
        verified: z.boolean().describe('True when the review comes from a verified source'),
        owner_reply: OwnerReplySchema.nullable().describe("The business's public reply, or null"),
      })
      .describe('Reviewcast extension: the review fields a feed item has no place for'),
  })
  .meta({ id: 'JsonFeedItem', description: 'One review as a JSON Feed item' });

export const JsonFeedSchema = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1').describe('The JSON Feed version'),
    title: z.string().describe('Feed title, naming the business'),
    home_page_url: z.string().describe('The review page'),
    feed_url: z.string().describe('This feed'),
    description: z.string().optional().describe('What the feed holds'),
    authors: z.array(Author).describe('The business'),
    hubs: z
      .array(z.object({ type: z.literal('WebSub').describe('Always WebSub'), url: z.string().describe('The hub to subscribe at') }))
      .describe('The WebSub hub that pushes every change of this feed'),
    items: z.array(JsonFeedItemSchema).describe('The 50 newest reviews, newest first'),
  })
  .meta({ id: 'JsonFeed', description: 'JSON Feed 1.1 of the newest reviews' });
export type JsonFeed = z.infer<typeof JsonFeedSchema>;
