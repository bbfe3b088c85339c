/** A search written as one pass over every review with each documented filter in turn: the test's oracle and the search benchmark's baseline both run it, each with its own name matching. */
import type { Review } from '../src/core/schema/review.js';
import type { SearchHits, SearchRequest } from '../src/core/schema/search.js';

/** Whether a review's text mentions what a mentions_technician / mentions_service filter asked for. */
export type MentionMatcher = (text: string | null) => boolean;

/** One page from the start of `newestFirst` filtered by `q`; the star sorts keep newest first within each rating. */
export function fullScan(
  newestFirst: readonly Review[],
  q: SearchRequest,
  technician: MentionMatcher | undefined,
  service: MentionMatcher | undefined,
): Omit<SearchHits, 'next_cursor'> {
  const needle = q.query?.toLowerCase();
  const hits = newestFirst.filter(
    (r) =>
      (q.rating === undefined || r.rating === q.rating) &&
      (q.min_rating === undefined || r.rating >= q.min_rating) &&
      (q.since === undefined || r.date >= q.since) &&
      (q.until === undefined || r.date <= q.until) &&
      (needle === undefined || (r.text ?? '').toLowerCase().includes(needle)) &&
      (technician === undefined || technician(r.text)) &&
      (service === undefined || service(r.text)) &&
      (q.with_text === undefined || (r.text !== null) === q.with_text) &&
      (q.with_reply === undefined || (r.owner_reply !== null) === q.with_reply),
  );
  if (q.sort === 'oldest') hits.reverse();
  if (q.sort === 'highest') hits.sort((a, b) => b.rating - a.rating);
  if (q.sort === 'lowest') hits.sort((a, b) => a.rating - b.rating);
  const reviews = hits.slice(0, q.limit ?? 20);
  return { matched: hits.length, returned: reviews.length, reviews };
}
