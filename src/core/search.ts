/** Review search over the word index: filters, sorts and cursors, and reviews since a date. */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Business } from './schema/business.js';
import type { Review } from './schema/review.js';
import type { SearchHits, SearchNotice, SearchRequest, SearchResult } from './schema/search.js';
import { wholeWordMatcher } from './text-match.js';
import { publishReview, sortNewestFirst } from './reviews.js';
import { isOneWord, WordIndex } from './word-index.js';

/** Filters kept per index: one per distinct technician, service or query text asked for. */
const FILTER_CACHE = 64;

/**
 * The reviews passing one filter: their ascending positions in the newest-first list, and a
 * membership test. Every filter of a search becomes one, so a search walks the shortest list.
 */
export interface Filter {
  readonly positions: Int32Array;
  /** 1 at each passing position: what a walk asks of the filters it does not drive. */
  readonly mask: Uint8Array;
  /** Names this filter object among the index's, for the memo of match counts. */
  readonly id: number;
  has(i: number): boolean;
}

let filterIds = 0;

function filterOf(mask: Uint8Array): Filter {
  let count = 0;
  for (const m of mask) count += m;
  const positions = new Int32Array(count);
  for (let i = 0, w = 0; i < mask.length; i++) if (mask[i] === 1) positions[w++] = i;
  return { positions, mask, id: ++filterIds, has: (i) => mask[i] === 1 };
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
  readonly ratings: Uint8Array;
  private wordIndex: WordIndex | null = null;
  private digest: string | null = null;
  private readonly filters = new Map<string, Filter>();
  /** How many reviews pass a set of filters within a date range (by filter ids and range): the same for every page, limit and sort. */
  private readonly counts = new Map<string, number>();
  /** Filters built ahead of any search (the roster's technicians and services): never evicted. */
  private readonly prepared = new Map<string, Filter>();

  constructor(
    readonly business: Business,
    reviews: readonly Review[],
    private readonly dataVersion: string,
  ) {
    this.reviews = sortNewestFirst(reviews);
    this.ratings = Uint8Array.from(this.reviews, (r) => r.rating);
  }

  /**
   * Names the data this index was built from (the store's revision and when it was made): cursors
   * carry it, so one made before the data changed is refused after. Replicas serving the same
   * revision give the same name, so they accept each other's cursors.
   */
  fingerprint(): string {
    this.digest ??= createHash('sha256').update(this.dataVersion).digest('hex');
    return this.digest;
  }

  words(): WordIndex {
    this.wordIndex ??= WordIndex.build(this.texts());
    return this.wordIndex;
  }

  /** The number of matches of a search, counted once per filters and date range (`key`). */
  matchCount(key: string, compute: () => number): number {
    return remember(this.counts, key, compute);
  }

  /** Reviews rated `min` stars or more (`exact`: exactly `min`). */
  rated(min: number, exact: boolean): Filter {
    return remember(this.filters, `r:${min}:${exact}`, () => filterOf(this.ratings.map((r) => (exact ? r === min : r >= min) ? 1 : 0)));
  }

  /** Reviews with text (`wanted` true) or rating-only (false). */
  withText(wanted: boolean): Filter {
    return remember(this.filters, `t:${wanted}`, () => filterOf(Uint8Array.from(this.reviews, (r) => ((r.text !== null) === wanted ? 1 : 0))));
  }

  /** Reviews imported from `source` (e.g. "google"). */
  fromSource(source: string): Filter {
    return remember(this.filters, `s:${source}`, () => filterOf(Uint8Array.from(this.reviews, (r) => (r.source === source ? 1 : 0))));
  }

  /** Reviews with an owner reply (`wanted` true) or without one (false). */
  withReply(wanted: boolean): Filter {
    return remember(this.filters, `o:${wanted}`, () => filterOf(Uint8Array.from(this.reviews, (r) => ((r.owner_reply !== null) === wanted ? 1 : 0))));
  }

  /** Reviews whose text matches `matcher`. */
  mentions(matcher: RegExp): Filter {
    const key = `m:${matcher.flags}/${matcher.source}`;
    return (
      this.prepared.get(key) ??
      remember(this.filters, key, () => filterOf(Uint8Array.from(this.reviews, (r) => (r.text !== null && matcher.test(r.text) ? 1 : 0))))
    );
  }

  /**
   * Builds ahead of any search what a search would otherwise build on first use: the word index
   * and a filter per technician and per service of the business profile (a search naming one, by
   * name or alias, uses the same matcher). `pause` is awaited between chunks of reviews, so the
   * caller's event loop stays free while they are made (about a second per filter at 1M reviews).
   * `kept`: preparedBytes() of an index over the same reviews (kept with their revision): what it
   * holds is read instead of made; bytes that do not fit are ignored. True when anything was made.
   */
  async prepare(pause: () => Promise<void>, kept: Uint8Array | null = null, chunk = 20_000): Promise<boolean> {
    if (kept) this.readPrepared(kept);
    let made = false;
    if (!this.wordIndex) {
      this.wordIndex = await WordIndex.make(this.texts(), pause, chunk);
      made = true;
    }
    const names = [
      ...this.business.technicians.map((t) => technicianNames(this.business, t.name)),
      ...this.business.services.map((s) => serviceTerms(this.business, s.id)),
    ];
    for (const terms of names) {
      const matcher = wholeWordMatcher(terms);
      if (!matcher) continue;
      const key = `m:${matcher.flags}/${matcher.source}`;
      if (this.prepared.has(key)) continue;
      const mask = new Uint8Array(this.reviews.length);
      for (let from = 0; from < this.reviews.length; from += chunk) {
        await pause();
        const to = Math.min(this.reviews.length, from + chunk);
        for (let i = from; i < to; i++) {
          const text = this.reviews[i]!.text;
          mask[i] = text !== null && matcher.test(text) ? 1 : 0;
        }
      }
      this.prepared.set(key, filterOf(mask));
      made = true;
    }
    return made;
  }

  /** What prepare made, as bytes: the word index's length and bytes, the prepared filters' keys (a line of JSON), then their masks in turn. */
  preparedBytes(): Buffer {
    const words = this.words().toBytes();
    const keys = Buffer.from(`${JSON.stringify([...this.prepared.keys()])}\n`);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(words.length);
    return Buffer.concat([head, words, keys, ...[...this.prepared.values()].map((f) => f.mask)]);
  }

  private readPrepared(kept: Uint8Array): void {
    if (kept.length < 4) return;
    const wordsLength = new DataView(kept.buffer, kept.byteOffset, kept.byteLength).getUint32(0, true);
    const keysAt = 4 + wordsLength;
    const newline = kept.indexOf(0x0a, keysAt);
    if (newline < 0) return;
    let keys: unknown;
    try {
      keys = JSON.parse(new TextDecoder().decode(kept.subarray(keysAt, newline)));
    } catch {
      return;
    }
    const n = this.reviews.length;
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string') || kept.length !== newline + 1 + keys.length * n) return;
    const words = WordIndex.fromBytes(kept.subarray(4, keysAt), this.reviews.length);
    if (!words) return;
    this.wordIndex = words;
    keys.forEach((key: string, k) => this.prepared.set(key, filterOf(new Uint8Array(kept.subarray(newline + 1 + k * n, newline + 1 + (k + 1) * n)))));
  }

  /**
   * Reviews whose lower-cased text contains `needle` (lower-cased). A needle of one word is
   * answered by the word index alone; otherwise its candidates are checked, each text lower-cased
   * as it is checked (lower-cased copies of every text were 28 MB at 100k reviews).
   */
  containing(needle: string): Filter {
    return remember(this.filters, `q:${needle}`, () => {
      const candidates = this.words().candidates(needle);
      const mask = new Uint8Array(this.reviews.length);
      if (candidates !== null && isOneWord(needle)) for (const i of candidates) mask[i] = 1;
      else if (candidates === null) this.reviews.forEach((r, i) => (mask[i] = (r.text ?? '').toLowerCase().includes(needle) ? 1 : 0));
      else for (const i of candidates) mask[i] = (this.reviews[i]!.text ?? '').toLowerCase().includes(needle) ? 1 : 0;
      return filterOf(mask);
    });
  }

  private texts(): (string | null)[] {
    return this.reviews.map((r) => r.text);
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

/** `dataVersion` changes whenever the business or the reviews change (the snapshot passes the store's revision). */
export function buildReviewIndex(business: Business, reviews: readonly Review[], dataVersion: string): ReviewIndex {
  return new ReviewIndex(business, reviews, dataVersion);
}

const norm = (s: string) => s.trim().toLowerCase();

/** The technician a name or alias names, ignoring case and surrounding spaces (roster entries, or the insights' technician entities). */
export function findTechnician<T extends { name: string; aliases: readonly string[] }>(technicians: readonly T[], name: string): T | undefined {
  const wanted = norm(name);
  return technicians.find((t) => norm(t.name) === wanted || t.aliases.some((a) => norm(a) === wanted));
}

/** The catalog service an id, label or alias names, ignoring case and surrounding spaces. */
export function findService<T extends { id: string; label: string; aliases: readonly string[] }>(services: readonly T[], service: string): T | undefined {
  const wanted = norm(service);
  return services.find((s) => s.id === wanted || norm(s.label) === wanted || s.aliases.some((a) => norm(a) === wanted));
}

/** Names a technician goes by: the roster entry's name and aliases when the name is on it. */
export function technicianNames(business: Business, name: string): string[] {
  const tech = findTechnician(business.technicians, name);
  return tech ? [tech.name, ...tech.aliases] : [name];
}

/** The technicians a name may be, as an answer lists them: "Marco (Marco Diaz); Priya". */
export function technicianChoices(technicians: readonly { name: string; aliases: readonly string[] }[]): string {
  return technicians.map((t) => (t.aliases.length ? `${t.name} (${t.aliases.join(', ')})` : t.name)).join('; ') || 'none';
}

/** The services a value may name, as an answer lists them: "ac_repair (AC repair, air conditioning)". */
export function serviceChoices(services: readonly { id: string; label: string; aliases: readonly string[] }[]): string {
  return services.map((s) => `${s.id} (${[s.label, ...s.aliases].join(', ')})`).join('; ') || 'none';
}

/**
 * What to tell a caller whose mentions_technician or mentions_service the business profile does
 * not know: the search still runs (the filter means "reviews naming it"), on the value as a word.
 */
function searchNotices(business: Business, q: SearchRequest): SearchNotice[] {
  const notices: SearchNotice[] = [];
  if (q.mentions_technician !== undefined && !findTechnician(business.technicians, q.mentions_technician)) {
    notices.push({
      parameter: 'mentions_technician',
      message: `"${q.mentions_technician}" is not a technician on the business's roster, so reviews were matched on that word alone. On the roster: ${technicianChoices(business.technicians)}.`,
      known: business.technicians.map((t) => t.name),
    });
  }
  if (q.mentions_service !== undefined && !findService(business.services, q.mentions_service)) {
    notices.push({
      parameter: 'mentions_service',
      message: `"${q.mentions_service}" is not a service of the business profile, so reviews were matched on those words alone. Services: ${serviceChoices(business.services)}.`,
      known: business.services.map((s) => s.id),
    });
  }
  return notices;
}

/** Words a service goes by: label and aliases of the catalog entry matched by id, label or alias. */
export function serviceTerms(business: Business, service: string): string[] {
  const svc = findService(business.services, service);
  return svc ? [svc.label, ...svc.aliases] : [service.replace(/[_-]+/g, ' ')];
}

const NOTHING: Filter = { positions: new Int32Array(0), mask: new Uint8Array(0), id: 0, has: () => false };

/** A cursor that cannot be used: garbled, from another search, or from data that has changed since. */
export class InvalidCursor extends Error {}

/**
 * One run of the result order: the positions (in the newest-first list) passing every filter of
 * the segment, walked forwards (newest first) or backwards. The shortest filter drives the walk;
 * the others are asked about each of its positions.
 */
interface Segment {
  lo: number;
  hi: number;
  at(k: number): number;
  /** First k whose position is >= p. */
  bound(p: number): number;
  others: Filter[];
}

function segmentOf(filters: Filter[], from: number, to: number): Segment {
  if (filters.length === 0) return { lo: from, hi: to, at: (k) => k, bound: (p) => p, others: [] };
  const ranges = filters.map((f) => ({ f, lo: lowerBound(f.positions, from), hi: lowerBound(f.positions, to) }));
  ranges.sort((a, b) => a.hi - a.lo - (b.hi - b.lo));
  const [driver, ...others] = ranges;
  const { positions } = driver!.f;
  return { lo: driver!.lo, hi: driver!.hi, at: (k) => positions[k]!, bound: (p) => lowerBound(positions, p), others: others.map((o) => o.f) };
}

/** Positions of the segment passing every filter: a plain loop over the masks, as it may walk a large share of the reviews. */
function count(seg: Segment): number {
  if (seg.others.length === 0) return seg.hi - seg.lo;
  const masks = seg.others.map((o) => o.mask);
  let n = 0;
  for (let k = seg.lo; k < seg.hi; k++) {
    const i = seg.at(k);
    let all = 1;
    for (let m = 0; m < masks.length && all === 1; m++) all = masks[m]![i] === 1 ? 1 : 0;
    n += all;
  }
  return n;
}

/** Where a page ends: the segment and the position of its last review. */
interface Place {
  segment: number;
  position: number;
}

const CursorPayload = z.strictObject({
  v: z.literal(1),
  d: z.string(),
  s: z.int().min(0),
  p: z.int().min(0),
  c: z.string(),
});

const digest = (s: string) => createHash('sha256').update(s).digest('base64url');

/** What makes two searches the same search for a cursor: every filter and the sort, not the limit. */
function searchKey(q: SearchRequest): string {
  return JSON.stringify([q.sort ?? 'newest', q.rating, q.min_rating, q.since, q.until, q.query, q.mentions_technician, q.mentions_service, q.with_text, q.with_reply, q.source]);
}

/**
 * A cursor names the last review of a page by its place in the order, with the data's
 * fingerprint (so it is refused once the data changes) and a check over both and the search
 * (so an altered cursor, or one from another search, is refused rather than misread). It is
 * opaque, not secret: forging one gains nothing a first page would not give.
 */
function encodeCursor(index: ReviewIndex, q: SearchRequest, place: Place): string {
  const d = index.fingerprint().slice(0, 16);
  const c = digest(`${index.fingerprint()}|${searchKey(q)}|${place.segment}|${place.position}`).slice(0, 16);
  return Buffer.from(JSON.stringify({ v: 1, d, s: place.segment, p: place.position, c })).toString('base64url');
}

const RESTART = 'start again from the first page by leaving cursor out';

function decodeCursor(index: ReviewIndex, q: SearchRequest, cursor: string, segments: number): Place {
  let payload: unknown;
  const bytes = Buffer.from(cursor, 'base64url');
  // Node's decoder skips what is not base64url and a dangling character: only the exact text issued is that cursor.
  if (bytes.toString('base64url') === cursor) {
    try {
      payload = JSON.parse(bytes.toString('utf8'));
    } catch {
      payload = undefined;
    }
  }
  const parsed = CursorPayload.safeParse(payload);
  if (!parsed.success) throw new InvalidCursor(`cursor is not one this service issued (garbled or altered); ${RESTART}`);
  const { d, s, p, c } = parsed.data;
  if (d !== index.fingerprint().slice(0, 16)) throw new InvalidCursor(`the reviews changed since this cursor was issued, so its pages would skip or repeat reviews; ${RESTART}`);
  if (c !== digest(`${index.fingerprint()}|${searchKey(q)}|${s}|${p}`).slice(0, 16) || s >= segments || p >= index.reviews.length) {
    throw new InvalidCursor(`cursor belongs to a different search (the filters or sort changed) or was altered; ${RESTART}`);
  }
  return { segment: s, position: p };
}

/** Every filter a search names, one Filter each (the dates are a range, applied apart). */
function filtersOf(index: ReviewIndex, q: SearchRequest): Filter[] {
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
  if (q.with_text !== undefined) filters.push(index.withText(q.with_text));
  if (q.with_reply !== undefined) filters.push(index.withReply(q.with_reply));
  if (q.source !== undefined) filters.push(index.fromSource(q.source));
  return filters;
}

/** A cap on a page's size besides its count: the page ends before the review that would take it past `maxBytes` (never before its first). */
export interface PageBudget {
  maxBytes: number;
  weigh(review: Review): number;
}

/**
 * The one search: every filter given applies; results in the order `sort` asks for, a page of
 * `limit` at a time from `cursor` (and of at most `budget.maxBytes`, when given). Each filter is a list of positions in the newest-first list;
 * the dates narrow them to a range by binary search, the shortest list in that range is walked
 * and the others are asked about each of its positions. Sorting by stars walks one segment per
 * star rating, each newest first. With a single filter the count is the length of its range, so
 * the cost is a binary search and `limit` reviews. Throws InvalidCursor for a cursor it cannot use.
 */
export function searchReviews(index: ReviewIndex, q: SearchRequest, budget?: PageBudget): SearchHits {
  const filters = filtersOf(index, q);
  const sort = q.sort ?? 'newest';
  const limit = q.limit ?? 20;
  const [from, to] = index.dateRange(q.since, q.until);
  const byStars = sort === 'highest' ? [5, 4, 3, 2, 1] : sort === 'lowest' ? [1, 2, 3, 4, 5] : null;
  const segments = byStars ? byStars.map((r) => segmentOf([...filters, index.rated(r, true)], from, to)) : [segmentOf(filters, from, to)];
  const backwards = sort === 'oldest';
  const start = q.cursor === undefined ? null : decodeCursor(index, q, q.cursor, segments.length);

  // One review past the page tells whether there is a next page.
  const page: Place[] = [];
  let bytes = 0;
  // Set when the budget ended the page: the review that did not fit begins the next one.
  let full = false;
  const room = () => page.length <= limit && !full;
  for (let s = start?.segment ?? 0; s < segments.length && room(); s++) {
    const seg = segments[s]!;
    const resume = start !== null && s === start.segment;
    const take = (k: number) => {
      const i = seg.at(k);
      if (!seg.others.every((o) => o.has(i))) return;
      if (budget && page.length < limit) {
        const weight = budget.weigh(index.reviews[i]!);
        if (page.length > 0 && bytes + weight > budget.maxBytes) {
          full = true;
          return;
        }
        bytes += weight;
      }
      page.push({ segment: s, position: i });
    };
    if (backwards) for (let k = resume ? Math.min(seg.hi, seg.bound(start.position)) - 1 : seg.hi - 1; k >= seg.lo && room(); k--) take(k);
    else for (let k = resume ? Math.max(seg.lo, seg.bound(start.position + 1)) : seg.lo; k < seg.hi && room(); k++) take(k);
  }
  const more = full || page.length > limit;
  if (page.length > limit) page.pop();
  const reviews = page.map((p) => index.reviews[p.position]!);
  const notices = searchNotices(index.business, q);
  return {
    // Sorting by stars splits the same matches by rating, so the count does not depend on the sort.
    matched: index.matchCount(`${filters.map((f) => f.id).sort((a, b) => a - b)}|${from}|${to}`, () => count(segmentOf(filters, from, to))),
    returned: reviews.length,
    reviews,
    next_cursor: more ? encodeCursor(index, q, page.at(-1)!) : null,
    ...(notices.length ? { notices } : {}),
  };
}

/** Every review passing the search's filters and dates, newest first, unpaged: what a filtered aggregate is computed over. */
export function matchingReviews(index: ReviewIndex, q: SearchRequest): Review[] {
  const [from, to] = index.dateRange(q.since, q.until);
  const seg = segmentOf(filtersOf(index, q), from, to);
  const out: Review[] = [];
  for (let k = seg.lo; k < seg.hi; k++) {
    const i = seg.at(k);
    if (seg.others.every((o) => o.has(i))) out.push(index.reviews[i]!);
  }
  return out;
}

/** A search's answer as the API and MCP serve it: each review with its permalink. */
export function publishHits(hits: SearchHits, baseUrl: string): SearchResult {
  return { ...hits, reviews: hits.reviews.map((r) => publishReview(r, baseUrl)) };
}

/** Reviews dated on or after `date`, newest first. */
export function reviewsSince(index: ReviewIndex, date: string): Review[] {
  const [from, to] = index.dateRange(date, undefined);
  return index.reviews.slice(from, to);
}
