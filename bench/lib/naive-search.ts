/** The search benchmark's baseline: the full scan of test/full-scan.ts with the service's own name matching. */
import { serviceTerms, technicianNames } from '../../src/core/search.js';
import { wholeWordMatcher } from '../../src/core/text-match.js';
import type { Business } from '../../src/core/schema/business.js';
import type { Review } from '../../src/core/schema/review.js';
import type { SearchHits, SearchRequest } from '../../src/core/schema/search.js';
import { fullScan, type MentionMatcher } from '../../test/full-scan.js';

/** A name filter as the obvious code writes it: the roster's names as one whole-word pattern, tested on every review. */
function mentioning(names: string[]): MentionMatcher {
  const pattern = wholeWordMatcher(names);
  return (text) => pattern !== null && text !== null && pattern.test(text);
}

/** One page from the start of the newest-first `sortedReviews` (the cursor is the indexed search's own). */
export function naiveSearch(business: Business, sortedReviews: readonly Review[], q: SearchRequest): Omit<SearchHits, 'next_cursor'> {
  const technician = q.mentions_technician ? mentioning(technicianNames(business, q.mentions_technician)) : undefined;
  const service = q.mentions_service ? mentioning(serviceTerms(business, q.mentions_service)) : undefined;
  return fullScan(sortedReviews, q, technician, service);
}
