// Property test: the indexed search returns exactly what an independent full scan, written here from the documented rules, returns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildReviewIndex, searchReviews } from '../src/core/search.js';
import type { Review } from '../src/core/schema/review.js';
import type { Business } from '../src/core/schema/business.js';
import type { SearchHits, SearchQuery, SearchRequest } from '../src/core/schema/search.js';
import { BUSINESS } from './fixtures/data.js';
import { fullScan } from './full-scan.js';

/*
 * The oracle: docs/api.md's search rules written out plainly, sharing no code with src/core
 * (no regular expressions built from names, no roster lookup helpers), so a mistake there
 * cannot be repeated here.
 */

const wordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** `phrase` occurs in `text` as whole words, case-insensitive; a space in it stands for any run of spaces. */
function hasWholeWords(text: string, phrase: string): boolean {
  const words = phrase.trim().toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return false;
  const chars = [...text.toLowerCase()];
  const wanted = words.map((w) => [...w]);
  for (let start = 0; start < chars.length; start++) {
    if (wordChar(chars[start - 1])) continue;
    let at = start;
    let ok = true;
    for (let w = 0; w < wanted.length && ok; w++) {
      if (w > 0) {
        const gap = at;
        while (at < chars.length && /\s/.test(chars[at]!)) at++;
        if (at === gap) ok = false;
      }
      for (const c of wanted[w]!) {
        if (chars[at] !== c) {
          ok = false;
          break;
        }
        at++;
      }
    }
    if (ok && !wordChar(chars[at])) return true;
  }
  return false;
}

/** A technician filter: a roster name or alias stands for the whole entry; anything else for itself. */
function technicianPhrases(business: Business, asked: string): string[] {
  const key = asked.trim().toLowerCase();
  for (const t of business.technicians) {
    const all = [t.name, ...t.aliases];
    if (all.some((n) => n.toLowerCase() === key)) return all;
  }
  return [asked];
}

/** A service filter: an id, label or alias stands for the label and aliases; anything else for itself, with _ and - read as spaces. */
function servicePhrases(business: Business, asked: string): string[] {
  const key = asked.trim().toLowerCase();
  for (const s of business.services) {
    if (s.id === key || [s.label, ...s.aliases].some((n) => n.toLowerCase() === key)) return [s.label, ...s.aliases];
  }
  return [asked.split(/[_-]+/).join(' ')];
}

/** The notices docs/api.md promises: one per filter naming nothing in the profile, with what the profile knows. */
function noticesOf(business: Business, q: SearchQuery): [string, string[]][] {
  const out: [string, string[]][] = [];
  const tech = q.mentions_technician?.trim().toLowerCase();
  if (tech !== undefined && !business.technicians.some((t) => [t.name, ...t.aliases].some((n) => n.toLowerCase() === tech))) {
    out.push(['mentions_technician', business.technicians.map((t) => t.name)]);
  }
  const svc = q.mentions_service?.trim().toLowerCase();
  if (svc !== undefined && !business.services.some((s) => s.id === svc || [s.label, ...s.aliases].some((n) => n.toLowerCase() === svc))) {
    out.push(['mentions_service', business.services.map((s) => s.id)]);
  }
  return out;
}

function oracle(business: Business, all: readonly Review[], q: SearchQuery): Omit<SearchHits, 'next_cursor'> {
  const later = (x: string, y: string): number => (x > y ? -1 : x < y ? 1 : 0);
  const newestFirst = [...all].sort((a, b) => later(a.date, b.date) || later(a.id, b.id));
  const mentioning = (phrases: string[]) => (text: string | null): boolean => text !== null && phrases.some((p) => hasWholeWords(text, p));
  const technician = q.mentions_technician === undefined ? undefined : mentioning(technicianPhrases(business, q.mentions_technician));
  const service = q.mentions_service === undefined ? undefined : mentioning(servicePhrases(business, q.mentions_service));
  return fullScan(newestFirst, q, technician, service);
}

// Words chosen to collide: prefixes and suffixes of each other, technician and service names,
// letters that change under lower-casing, a combining mark, and punctuation between them.
const WORDS = ['on', 'time', 'timely', 'won', 'ontime', 'Al', 'Also', 'Alberto', 'drain', 'drains', 'AC', 'ÉTÉ', 'été', 'İstanbul', 'cafe\u0301', 'e', 'n', '42'];
const SEPARATORS = [' ', ' ', ', ', '. ', '-', "'", '!', '  '];

const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 12 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const review = fc.record({
  n: fc.integer({ min: 0, max: 1e9 }),
  rating: fc.integer({ min: 1, max: 5 }),
  date: fc.date({ min: new Date('2024-01-01'), max: new Date('2024-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  text: fc.option(text, { nil: null }),
  replied: fc.boolean(),
});

const reviews = fc.uniqueArray(review, { selector: (r) => r.n, maxLength: 40 }).map((rs) =>
  rs.map(
    (r): Review => ({
      id: `01J${r.n.toString(32).toUpperCase().padStart(23, '0')}`,
      author: 'A',
      author_avatar_url: null,
      rating: r.rating,
      date: r.date,
      text: r.text,
      source: 'google',
      source_url: null,
      owner_reply: r.replied ? { text: 'Thanks', date: r.date } : null,
      verified: true,
      source_id: null,
    }),
  ),
);

const isoDay = fc.date({ min: new Date('2024-01-01'), max: new Date('2024-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
/** A filter present in about one query in four: with every filter on at once nearly nothing matches, and the order of the hits would go untested. */
const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
const query = fc
  .record({
    rating: sometimes(fc.integer({ min: 1, max: 5 })),
    min_rating: sometimes(fc.constantFrom(1, 2.5, 4, 5)),
    since: sometimes(isoDay),
    until: sometimes(isoDay),
    // Substrings cut anywhere in a word, whole phrases, and strings with no word at all.
    query: sometimes(fc.oneof(text.filter((t) => t.length > 0), fc.constantFrom('on t', 'n ti', 'ime', 'e', 'lso', 'été', 'É', ', ', '-', 'zz'), fc.string({ minLength: 1, maxLength: 4 }))),
    mentions_technician: sometimes(fc.constantFrom('Al', 'alberto', 'Bea', 'nobody', '!!')),
    mentions_service: sometimes(fc.constantFrom('ac_repair', 'drain', 'Drain cleaning', 'unknown service')),
    limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    sort: fc.option(fc.constantFrom('newest', 'oldest', 'highest', 'lowest'), { nil: undefined }),
    with_text: sometimes(fc.boolean()),
    with_reply: sometimes(fc.boolean()),
  })
  .map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)));

describe('indexed search', () => {
  it('returns exactly what a full scan returns, for any reviews, filters and sort, page after page', () => {
    // Runs whose hits have more than one rating and more than one date: only those test the order.
    let ordered = 0;
    fc.assert(
      fc.property(reviews, query, (rs, q) => {
        const search = q as SearchQuery;
        if (search.since && search.until && search.since > search.until) [search.since, search.until] = [search.until, search.since];
        const index = buildReviewIndex(BUSINESS, rs, 'property test');
        const page = (s: SearchRequest) => {
          const { next_cursor, notices, ...rest } = searchReviews(index, s);
          return { next_cursor, rest, notices: (notices ?? []).map((n) => [n.parameter, n.known]) };
        };
        // Twice: the second run uses the word index and mention masks the first one built.
        const expected = oracle(BUSINESS, rs, search);
        if (new Set(expected.reviews.map((r) => r.rating)).size > 1 && new Set(expected.reviews.map((r) => r.date)).size > 1) ordered++;
        assert.deepEqual(page(search).rest, expected);
        assert.deepEqual(page(search).rest, expected);
        assert.deepEqual(page(search).notices, noticesOf(BUSINESS, search));
        // Following the cursors yields every match once, in order, whatever the page size.
        const all = oracle(BUSINESS, rs, { ...search, limit: rs.length + 1 }).reviews;
        const seen = [];
        let cursor: string | null = null;
        do {
          const next: ReturnType<typeof page> = page({ ...search, ...(cursor === null ? {} : { cursor }) });
          seen.push(...next.rest.reviews);
          cursor = next.next_cursor;
        } while (cursor !== null && seen.length <= all.length);
        assert.deepEqual(seen, all);
      }),
      { numRuns: 2000 },
    );
    assert.ok(ordered >= 200, `only ${ordered} of 2,000 runs had hits whose order matters`);
  });

  it('an index read from the bytes a prepared one keeps returns what a full scan returns', async () => {
    const now = () => Promise.resolve();
    await fc.assert(
      fc.asyncProperty(reviews, query, async (rs, q) => {
        const search = q as SearchQuery;
        if (search.since && search.until && search.since > search.until) [search.since, search.until] = [search.until, search.since];
        const built = buildReviewIndex(BUSINESS, rs, 'kept');
        assert.equal(await built.prepare(now, null, 7), true, 'made');
        const read = buildReviewIndex(BUSINESS, rs, 'kept');
        assert.equal(await read.prepare(now, built.preparedBytes()), false, 'read, not made');
        const { next_cursor, notices, ...rest } = searchReviews(read, search);
        assert.deepEqual(rest, oracle(BUSINESS, rs, search));
        assert.deepEqual((notices ?? []).map((n) => [n.parameter, n.known]), noticesOf(BUSINESS, search));
        assert.equal(next_cursor, searchReviews(built, search).next_cursor);
      }),
      { numRuns: 500 },
    );
  });
});
