import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildReviewIndex, searchReviews } from '../src/core/search.js';
import type { Review } from '../src/core/schema/review.js';
import type { SearchQuery } from '../src/core/schema/search.js';
import { naiveSearch } from '../bench/lib/naive-search.js';
import { sortNewestFirst } from '../src/core/reviews.js';
import { BUSINESS } from './fixtures/data.js';

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
      owner_reply: null,
      verified: true,
    }),
  ),
);

const isoDay = fc.date({ min: new Date('2024-01-01'), max: new Date('2024-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const query = fc.record(
  {
    rating: fc.integer({ min: 1, max: 5 }),
    min_rating: fc.constantFrom(1, 2.5, 4, 5),
    since: isoDay,
    until: isoDay,
    // Substrings cut anywhere in a word, whole phrases, and strings with no word at all.
    query: fc.oneof(text.filter((t) => t.length > 0), fc.constantFrom('on t', 'n ti', 'ime', 'e', 'lso', 'été', 'É', ', ', '-', 'zz'), fc.string({ minLength: 1, maxLength: 4 })),
    mentions_technician: fc.constantFrom('Al', 'alberto', 'Bea', 'nobody', '!!'),
    mentions_service: fc.constantFrom('ac_repair', 'drain', 'Drain cleaning', 'unknown service'),
    limit: fc.integer({ min: 1, max: 100 }),
  },
  { requiredKeys: [] },
);

describe('indexed search', () => {
  it('returns exactly what a full scan returns, for any reviews and any filters', () => {
    fc.assert(
      fc.property(reviews, query, (rs, q) => {
        const search = q as SearchQuery;
        if (search.since && search.until && search.since > search.until) [search.since, search.until] = [search.until, search.since];
        const index = buildReviewIndex(BUSINESS, rs);
        // Twice: the second run uses the word index and mention masks the first one built.
        assert.deepEqual(searchReviews(index, search), naiveSearch(BUSINESS, sortNewestFirst(rs), search));
        assert.deepEqual(searchReviews(index, search), naiveSearch(BUSINESS, sortNewestFirst(rs), search));
      }),
      { numRuns: 2000 },
    );
  });
});
