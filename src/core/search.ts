import type { Business } from './schema/business.js';
import type { Review } from './schema/review.js';
import type { SearchQuery, SearchResult } from './schema/search.js';
import { wholeWordMatcher } from './text-match.js';
import { sortNewestFirst } from './reviews.js';
import { WordIndex } from './word-index.js';

/** Filters kept per index: one per distinct technician, service or query text asked for. */
const FILTER_CACHE = 64;

/**
 * The reviews passing one filter: their ascending positions in the newest-first list, and a
 * membership test. Every filter of a search becomes one, so a search walks the shortest list.
 */
export interface Filter {
  readonly positions: Int32Array;
  has(i: number): boolean;
}

function filterOf(mask: Uint8Array): Filter {
  let count = 0;
  for (const m of mask) count += m;
  const positions = new Int32Array(count);
  for (let i = 0, w = 0; i < mask.length; i++) if (mask[i] === 1) positions[w++] = i;
  return { positions, has: (i) => mask[i] === 1 };
}

/** Bounded memo: the oldest entry goes when full. */
function remember<T>(cache: Map<string, T>, key: string, build: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    if (cache.size >= FILTER_CACHE) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

/**
 * Reviews prepared for searching: sorted newest first, with lower-cased text, and filters
 * built on first use and kept for the revision: per rating, per technician or service matcher,
 * per query text (found through the word index, then checked). Built once per revision and
 * shared by every search (HTTP and MCP).
 */
export class ReviewIndex {
  readonly reviews: readonly Review[];
  readonly lowerText: readonly string[];
  readonly ratings: Uint8Array;
  private wordIndex: WordIndex | null = null;
  private readonly filters = new Map<string, Filter>();

  constructor(
    readonly business: Business,
    reviews: readonly Review[],
  ) {
    this.reviews = sortNewestFirst(reviews);
    this.lowerText = this.reviews.map((r) => (r.text ?? '').toLowerCase());
    this.ratings = Uint8Array.from(this.reviews, (r) => r.rating);
  }

  words(): WordIndex {
    this.wordIndex ??= new WordIndex(this.lowerText);
    return this.wordIndex;
  }

  /** Reviews rated `min` stars or more (`exact`: exactly `min`). */
  rated(min: number, exact: boolean): Filter {
    return remember(this.filters, `r:${min}:${exact}`, () => filterOf(this.ratings.map((r) => (exact ? r === min : r >= min) ? 1 : 0)));
  }

  /** Reviews whose text matches `matcher`. */
  mentions(matcher: RegExp): Filter {
    return remember(this.filters, `m:${matcher.flags}/${matcher.source}`, () =>
      filterOf(Uint8Array.from(this.reviews, (r) => (r.text !== null && matcher.test(r.text) ? 1 : 0))),
    );
  }

  /** Reviews whose lower-cased text contains `needle` (lower-cased). */
  containing(needle: string): Filter {
    return remember(this.filters, `q:${needle}`, () => {
      const candidates = this.words().candidates(needle);
      const mask = new Uint8Array(this.reviews.length);
      if (candidates === null) this.lowerText.forEach((t, i) => (mask[i] = t.includes(needle) ? 1 : 0));
      else for (const i of candidates) mask[i] = this.lowerText[i]!.includes(needle) ? 1 : 0;
      return filterOf(mask);
    });
  }

  /** Positions [from, to) of the reviews dated within since..until (the list is sorted by date, newest first). */
  dateRange(since: string | undefined, until: string | undefined): [number, number] {
    // First position whose date is < bound (dates descend along the list).
    const firstBelow = (bound: string) => {
      let lo = 0;
      let hi = this.reviews.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.reviews[mid]!.date < bound) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    const to = since === undefined ? this.reviews.length : firstBelow(since);
    // Dates are YYYY-MM-DD, so "until" plus a high character bounds every date on that day.
    const from = until === undefined ? 0 : firstBelow(`${until}\uffff`);
    return [from, Math.max(from, to)];
  }
}

/** First index in the ascending list whose value is >= `value`. */
function lowerBound(list: Int32Array, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function buildReviewIndex(business: Business, reviews: readonly Review[]): ReviewIndex {
  return new ReviewIndex(business, reviews);
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

const NOTHING: Filter = { positions: new Int32Array(0), has: () => false };

/**
 * The one search: every filter given applies; results newest first. Each filter is a list of
 * positions; the dates narrow them to a range by binary search, the shortest list in that range
 * is walked and the others are asked about each of its positions. With a single filter the
 * count is the length of its range, so the cost is a binary search and `limit` reviews.
 */
export function searchReviews(index: ReviewIndex, q: SearchQuery): SearchResult {
  const filters: Filter[] = [];
  if (q.rating !== undefined) filters.push(index.rated(q.rating, true));
  // Ratings are whole stars: at least 4.5 means 5.
  if (q.min_rating !== undefined && q.min_rating > 1) filters.push(index.rated(Math.ceil(q.min_rating), false));
  for (const [name, terms] of [
    [q.mentions_technician, (n: string) => technicianNames(index.business, n)],
    [q.mentions_service, (n: string) => serviceTerms(index.business, n)],
  ] as const) {
    if (name === undefined) continue;
    // A name with no letters matches nothing, as the regex would.
    const matcher = wholeWordMatcher(terms(name));
    filters.push(matcher ? index.mentions(matcher) : NOTHING);
  }
  if (q.query !== undefined) filters.push(index.containing(q.query.toLowerCase()));

  const limit = q.limit ?? 20;
  const [from, to] = index.dateRange(q.since, q.until);
  const out: Review[] = [];
  if (filters.length === 0) {
    for (let i = from; i < Math.min(to, from + limit); i++) out.push(index.reviews[i]!);
    return { matched: to - from, returned: out.length, reviews: out };
  }
  const ranges = filters.map((f) => ({ f, lo: lowerBound(f.positions, from), hi: lowerBound(f.positions, to) }));
  ranges.sort((a, b) => a.hi - a.lo - (b.hi - b.lo));
  const [driver, ...others] = ranges;
  const { positions } = driver!.f;
  if (others.length === 0) {
    for (let k = driver!.lo; k < Math.min(driver!.hi, driver!.lo + limit); k++) out.push(index.reviews[positions[k]!]!);
    return { matched: driver!.hi - driver!.lo, returned: out.length, reviews: out };
  }
  let matched = 0;
  for (let k = driver!.lo; k < driver!.hi; k++) {
    const i = positions[k]!;
    if (!others.every((o) => o.f.has(i))) continue;
    matched++;
    if (out.length < limit) out.push(index.reviews[i]!);
  }
  return { matched, returned: out.length, reviews: out };
}

/** Reviews dated on or after `date`, newest first. */
export function reviewsSince(index: ReviewIndex, date: string): Review[] {
  const [from, to] = index.dateRange(date, undefined);
  return index.reviews.slice(from, to);
}
