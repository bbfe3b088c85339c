import { serviceTerms, technicianNames } from '../../src/core/search.js';
import { wholeWordMatcher } from '../../src/core/text-match.js';
import type { Business } from '../../src/core/schema/business.js';
import type { Review } from '../../src/core/schema/review.js';
import type { SearchQuery, SearchResult } from '../../src/core/schema/search.js';

/**
 * The search written the obvious way, one pass over every review with every filter tested in
 * turn: the baseline of the search benchmark and the oracle the indexed search is tested against.
 */
export function naiveSearch(business: Business, sortedReviews: readonly Review[], q: SearchQuery): SearchResult {
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
      (svc === undefined || (svc !== null && r.text !== null && svc.test(r.text))),
  );
  const reviews = hits.slice(0, q.limit ?? 20);
  return { matched: hits.length, returned: reviews.length, reviews };
}

