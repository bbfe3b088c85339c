import type { Business } from '../schema/business.js';
import type { Review } from '../schema/review.js';
import { reviewPermalink } from '../reviews.js';
import { entryText, EXTENSION_DOCS_PATH, FEED_ITEMS, HUB_PATH, reviewEntryId, reviewUpdated, stars } from './websub-topics.js';
import type { JsonFeed } from '../schema/jsonfeed.js';

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of the newest reviews, `reviews` newest first; `modified` as renderAtom's. */
export function renderJsonFeed(business: Business, reviews: readonly Review[], baseUrl: string, tagEntity: string, modified: ReadonlyMap<string, string>): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: `Reviews of ${business.name}`,
    home_page_url: `${baseUrl}/`,
    feed_url: `${baseUrl}/api/feed.json`,
    ...(business.description ? { description: business.description } : {}),
    authors: [{ name: business.name, ...(business.url ? { url: business.url } : {}) }],
    hubs: [{ type: 'WebSub', url: `${baseUrl}${HUB_PATH}` }],
    items: reviews.slice(0, FEED_ITEMS).map((r) => ({
      id: reviewEntryId(tagEntity, r.id),
      url: reviewPermalink(baseUrl, r.id),
      ...(r.source_url ? { external_url: r.source_url } : {}),
      title: `${stars(r.rating)} ${r.rating}/5 by ${r.author}`,
      content_text: entryText(r, business.name),
      date_published: `${r.date}T00:00:00Z`,
      date_modified: reviewUpdated(r, modified.get(r.id)),
      authors: [{ name: r.author, ...(r.author_avatar_url ? { avatar: r.author_avatar_url } : {}) }],
      tags: [`rating-${r.rating}`, r.source],
      _reviewcast: { about: `${baseUrl}${EXTENSION_DOCS_PATH}`, review_id: r.id, rating: r.rating, source: r.source, verified: r.verified, owner_reply: r.owner_reply },
    })),
  };
}
