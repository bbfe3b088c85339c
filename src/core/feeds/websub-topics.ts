import type { Review } from '../schema/review.js';

/** The three WebSub topics: the same review data in three formats. Paths are relative to BASE_URL. */
export const TOPIC_PATHS = ['/feed.xml', '/api/feed.json', '/reviews.json'] as const;
export type TopicPath = (typeof TOPIC_PATHS)[number];
export const HUB_PATH = '/api/websub/hub';

/** How many of the newest reviews the feeds carry (interface spec, Limits). */
export const FEED_ITEMS = 50;

/**
 * The tagging entity of entry ids (RFC 4151 `authorityName "," date`): the public host name
 * without a port (a port is not part of an authority name) and a date. Chosen once per
 * installation and stored, so ids stay the same when BASE_URL moves.
 */
export function taggingEntity(baseUrl: string, today: string): string {
  const host = new URL(baseUrl).hostname;
  // An IPv6 literal is no DNS name; such an installation is a local one.
  return `${host.includes(':') || host.startsWith('[') ? 'localhost' : host},${today}`;
}

/** Entry ids must never change (RFC 4287 §4.2.6): the installation's tagging entity and the review id. */
export function reviewEntryId(tagEntity: string, reviewId: string): string {
  return `tag:${tagEntity}:review:${reviewId}`;
}

/** Where the `_reviewcast` JSON Feed extension is documented (its `about`, JSON Feed 1.1 §Extensions). */
export const EXTENSION_DOCS_PATH = '/developers#reviewcast-extension';

/** An entry's text: the review (or a note for a rating-only one), then the owner's reply. Atom and JSON Feed say the same. */
export function entryText(r: Review, businessName: string): string {
  const body = [r.text ?? `Rated ${r.rating} out of 5 (no written review).`];
  if (r.owner_reply) body.push(`Reply from ${businessName} (${r.owner_reply.date}): ${r.owner_reply.text}`);
  return body.join('\n\n');
}

export function stars(rating: number): string {
  return '★'.repeat(rating) + '☆'.repeat(5 - rating);
}

/**
 * Whether an import's change to a review is one a feed entry's updated time moves for ("significant",
 * RFC 4287 §4.2.15): any field the feeds show. Not a new avatar address (some sources hand out a new
 * one on every fetch, so every re-import would move every entry) nor its id in its source (not shown).
 */
export function changedForReaders(before: Review, after: Review): boolean {
  return (
    before.text !== after.text ||
    before.rating !== after.rating ||
    before.author !== after.author ||
    before.date !== after.date ||
    before.source !== after.source ||
    before.source_url !== after.source_url ||
    before.verified !== after.verified ||
    before.owner_reply?.text !== after.owner_reply?.text ||
    before.owner_reply?.date !== after.owner_reply?.date
  );
}

/**
 * The time a review last changed as far as a feed reader cares (RFC 4287 §4.2.15): the latest of
 * its date, its owner reply's, and `modified`, when an import last changed it so (changedForReaders),
 * where one did.
 */
export function reviewUpdated(r: Review, modified: string | undefined): string {
  const replyDate = r.owner_reply?.date;
  const dated = `${replyDate !== undefined && replyDate > r.date ? replyDate : r.date}T00:00:00Z`;
  return modified !== undefined && Date.parse(modified) > Date.parse(dated) ? modified : dated;
}
