import { create } from 'xmlbuilder2';
import type { Business } from '../schema/business.js';
import type { Review } from '../schema/review.js';
import { reviewPermalink } from '../reviews.js';
import { entryText, FEED_ITEMS, HUB_PATH, reviewEntryId, reviewUpdated, stars } from './websub-topics.js';

export const ATOM_CONTENT_TYPE = 'application/atom+xml';

/** XML 1.0 cannot carry most control characters or lone surrogates, even escaped; the builder does not drop them, so we do. */
function xmlText(s: string): string {
  return s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

/**
 * RFC 4287 Atom feed of the newest reviews. `reviews` newest first; `updated` is when the data
 * last changed, so identical data renders identical bytes on every replica; `modified`, per review
 * id, when an import last changed it (StoredData's).
 */
export function renderAtom(business: Business, reviews: readonly Review[], baseUrl: string, tagEntity: string, updated: string, modified: ReadonlyMap<string, string>): string {
  const feed = create({ version: '1.0', encoding: 'utf-8' }).ele('http://www.w3.org/2005/Atom', 'feed');
  // §4.1.1: atom:feed MUST contain exactly one id, title and updated, and an author unless every entry has one.
  feed.ele('id').txt(`${baseUrl}/feed.xml`);
  feed.ele('title').txt(xmlText(`Reviews of ${business.name}`));
  if (business.description) feed.ele('subtitle').txt(xmlText(business.description));
  feed.ele('updated').txt(updated);
  feed.ele('author').ele('name').txt(xmlText(business.name));
  // The alternate (the site) first: some parsers take the first link as the site's.
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: `${baseUrl}/` });
  feed.ele('link', { rel: 'self', type: ATOM_CONTENT_TYPE, href: `${baseUrl}/feed.xml` });
  feed.ele('link', { rel: 'hub', href: `${baseUrl}${HUB_PATH}` });
  feed.ele('generator').txt('Reviewcast');
  for (const r of reviews.slice(0, FEED_ITEMS)) {
    const entry = feed.ele('entry');
    entry.ele('id').txt(reviewEntryId(tagEntity, r.id));
    entry.ele('title').txt(xmlText(`${stars(r.rating)} ${r.rating}/5 by ${r.author}`));
    entry.ele('published').txt(`${r.date}T00:00:00Z`);
    entry.ele('updated').txt(reviewUpdated(r, modified.get(r.id)));
    entry.ele('author').ele('name').txt(xmlText(r.author));
    entry.ele('category', { term: `rating-${r.rating}`, label: `${r.rating} out of 5 stars` });
    // type="text": review text is shown as written, never interpreted as markup.
    entry.ele('content', { type: 'text' }).txt(xmlText(entryText(r, business.name)));
    // Every entry links to its page here; the original, where there is one, is where it came from (RFC 4287 §4.2.7.2 "via").
    entry.ele('link', { rel: 'alternate', type: 'text/html', href: reviewPermalink(baseUrl, r.id) });
    if (r.source_url) entry.ele('link', { rel: 'via', type: 'text/html', href: r.source_url });
  }
  return feed.end({ prettyPrint: false });
}
