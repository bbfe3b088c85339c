/** The three WebSub topics: the same review data in three formats. Paths are relative to BASE_URL. */
export const TOPIC_PATHS = ['/feed.xml', '/api/feed.json', '/reviews.json'] as const;
export type TopicPath = (typeof TOPIC_PATHS)[number];
export const HUB_PATH = '/api/websub/hub';

/** How many of the newest reviews the feeds carry (interface spec, Limits). */
export const FEED_ITEMS = 50;

/** Entry ids must never change (RFC 4287 §4.2.6); a tag URI on the public host keeps them stable and globally unique. */
export function reviewEntryId(baseUrl: string, reviewId: string, reviewDate: string): string {
  return `tag:${new URL(baseUrl).host},${reviewDate}:review:${reviewId}`;
}

export function stars(rating: number): string {
  return '★'.repeat(rating) + '☆'.repeat(5 - rating);
}

/** The time a review last changed as far as a feed reader cares: its date, or its owner reply's. */
export function reviewUpdated(date: string, replyDate: string | null): string {
  return `${replyDate !== null && replyDate > date ? replyDate : date}T00:00:00Z`;
}
