import { serviceTerms, technicianNames } from '../../src/core/search.js';
import { wholeWordMatcher } from '../../src/core/text-match.js';
import type { Business } from '../../src/core/schema/business.js';
import type { Review } from '../../src/core/schema/review.js';
import type { SearchHits, SearchRequest } from '../../src/core/schema/search.js';

/**
 * The search written the obvious way, one pass over every review with every filter tested in
 * turn: the baseline of the search benchmark (one page from the start; the cursor is the indexed
 * search's own).
 */
export function naiveSearch(business: Business, sortedReviews: readonly Review[], q: SearchRequest): Omit<SearchHits, 'next_cursor'> {
  const needle = q.query?.toLowerCase();
  const tech = q.mentions_technician ? wholeWordMatcher(technicianNames(business, q.mentions_technician)) : undefined;
  const svc = q.mentions_service ? wholeWordMatcher(serviceTerms(business, q.mentions_service)) : undefined;
  const hits = sortedReviews.filter(
    (r) =>
      (q.rating === undefined || r.rating === q.rating) &&
      (q.min_rating === undefined || r.rating >= q.min_rating) &&
      (q.since === undefined || r.date >= q.since) &&
      (q.until === undefined || r.date <= q.until) &&
      (needle === undefined || (r.text ?? '').toLowerCase().includes(needle)) &&
      (tech === undefined || (tech !== null && r.text !== null && tech.test(r.text))) &&
      (svc === undefined || (svc !== null && r.text !== null && svc.test(r.text))) &&
      (q.with_text === undefined || (r.text !== null) === q.with_text) &&
      (q.with_reply === undefined || (r.owner_reply !== null) === q.with_reply),
  );
  // sortedReviews is newest first; the star sorts keep that order within each rating.
  if (q.sort === 'oldest') hits.reverse();
  if (q.sort === 'highest') hits.sort((a, b) => b.rating - a.rating);
  if (q.sort === 'lowest') hits.sort((a, b) => a.rating - b.rating);
  const reviews = hits.slice(0, q.limit ?? 20);
  return { matched: hits.length, returned: reviews.length, reviews };
}

