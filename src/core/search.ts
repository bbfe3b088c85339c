import type { Business } from './schema/business.js';
import type { Review } from './schema/review.js';
import type { SearchQuery, SearchResult } from './schema/search.js';
import { wholeWordMatcher } from './text-match.js';
import { sortNewestFirst } from './reviews.js';

/**
 * Reviews prepared for searching: sorted newest first with lower-cased text. Built once per
 * revision and shared by every search (HTTP and MCP).
 */
export interface ReviewIndex {
  readonly business: Business;
  readonly reviews: readonly Review[];
  readonly lowerText: readonly string[];
}

export function buildReviewIndex(business: Business, reviews: readonly Review[]): ReviewIndex {
  const sorted = sortNewestFirst(reviews);
  return { business, reviews: sorted, lowerText: sorted.map((r) => (r.text ?? '').toLowerCase()) };
}

/** Names a technician goes by: the roster entry's name and aliases when the name is on it. */
export function technicianNames(business: Business, name: string): string[] {
  const wanted = name.trim().toLowerCase();
  const tech = business.technicians.find(
    (t) => t.name.toLowerCase() === wanted || t.aliases.some((a) => a.toLowerCase() === wanted),
  );
  return tech ? [tech.name, ...tech.aliases] : [name];
}

/** Words a service goes by: label and aliases of the catalog entry matched by id, label or alias. */
export function serviceTerms(business: Business, service: string): string[] {
  const wanted = service.trim().toLowerCase();
  const svc = business.services.find(
    (s) => s.id === wanted || s.label.toLowerCase() === wanted || s.aliases.some((a) => a.toLowerCase() === wanted),
  );
  return svc ? [svc.label, ...svc.aliases] : [service.replace(/[_-]+/g, ' ')];
}

/** The one search: every filter given applies; results newest first. */
export function searchReviews(index: ReviewIndex, q: SearchQuery): SearchResult {
  const needle = q.query?.toLowerCase();
  const tech = q.mentions_technician ? wholeWordMatcher(technicianNames(index.business, q.mentions_technician)) : null;
  const svc = q.mentions_service ? wholeWordMatcher(serviceTerms(index.business, q.mentions_service)) : null;
  const limit = q.limit ?? 20;
  const out: Review[] = [];
  let matched = 0;
  for (let i = 0; i < index.reviews.length; i++) {
    const r = index.reviews[i]!;
    if (q.rating !== undefined && r.rating !== q.rating) continue;
    if (q.min_rating !== undefined && r.rating < q.min_rating) continue;
    if (q.since !== undefined && r.date < q.since) continue;
    if (q.until !== undefined && r.date > q.until) continue;
    if (needle !== undefined && !index.lowerText[i]!.includes(needle)) continue;
    if (tech && (r.text === null || !tech.test(r.text))) continue;
    if (svc && (r.text === null || !svc.test(r.text))) continue;
    matched++;
    if (out.length < limit) out.push(r);
  }
  return { matched, returned: out.length, reviews: out };
}

/** Reviews dated on or after `date`, newest first. */
export function reviewsSince(index: ReviewIndex, date: string): Review[] {
  const out: Review[] = [];
  for (const r of index.reviews) {
    // Sorted newest first: the first older review ends the run.
    if (r.date < date) break;
    out.push(r);
  }
  return out;
}
