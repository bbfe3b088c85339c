/**
 * Search at scale: the one search function over the in-memory snapshot (what both stores use)
 * against the same query in PostgreSQL with a pg_trgm GIN index, measured in the same run on
 * the same 100,000 reviews. Also checks that both return the same reviews.
 * Needs PostgreSQL at TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
 * Usage: npm run bench:search [-- 100000]
 */
import pg from 'pg';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { buildReviewIndex, searchReviews } from '../src/core/search.js';
import { benchReviews } from './data.js';

const n = Number(process.argv[2] ?? 100_000);
const reviews = benchReviews(n);
const index = buildReviewIndex(DEMO_BUSINESS, reviews);

const client = new pg.Client({ connectionString: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
await client.connect();
await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
await client.query('DROP TABLE IF EXISTS bench_reviews');
await client.query('CREATE TABLE bench_reviews (id TEXT PRIMARY KEY, date TEXT NOT NULL, rating INT NOT NULL, text TEXT, json TEXT NOT NULL)');
for (let i = 0; i < reviews.length; i += 5000) {
  const b = reviews.slice(i, i + 5000);
  await client.query('INSERT INTO bench_reviews SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[])', [
    b.map((r) => r.id),
    b.map((r) => r.date),
    b.map((r) => r.rating),
    b.map((r) => r.text),
    b.map((r) => JSON.stringify(r)),
  ]);
}
await client.query('CREATE INDEX ON bench_reviews USING gin (lower(text) gin_trgm_ops)');
await client.query('CREATE INDEX ON bench_reviews (date DESC, id DESC)');
await client.query('ANALYZE bench_reviews');

const cases: { name: string; query: string; rating?: number }[] = [
  { name: 'common phrase "on time"', query: 'on time' },
  { name: 'rare phrase "heat exchanger"', query: 'heat exchanger' },
  { name: 'phrase + rating=1', query: 'rude', rating: 1 },
  { name: 'no match', query: 'zzqx' },
];

function timeIt(fn: () => unknown, runs: number): number {
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - t0) / runs;
}

const rows = [];
for (const c of cases) {
  const q = { query: c.query, rating: c.rating, limit: 20 };
  const ours = searchReviews(index, q);
  const oursMs = timeIt(() => searchReviews(index, q), 20);
  const sql = `SELECT json, count(*) OVER () AS matched FROM bench_reviews WHERE lower(text) LIKE $1 ${c.rating ? 'AND rating = $2' : ''} ORDER BY date DESC, id DESC LIMIT 20`;
  const params: unknown[] = [`%${c.query.toLowerCase()}%`, ...(c.rating ? [c.rating] : [])];
  let theirs = await client.query<{ json: string; matched: string }>(sql, params);
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) theirs = await client.query(sql, params);
  const pgMs = (performance.now() - t0) / 20;
  const same = ours.matched === Number(theirs.rows[0]?.matched ?? 0) && JSON.stringify(ours.reviews.map((r) => r.id)) === JSON.stringify(theirs.rows.map((r) => (JSON.parse(r.json) as { id: string }).id));
  rows.push({ search: c.name, matched: ours.matched, 'reviewcast ms': oursMs.toFixed(2), 'postgres pg_trgm ms': pgMs.toFixed(2), 'same result': same });
}
console.log(`search over ${n.toLocaleString('en')} reviews, limit 20, 20 runs each`);
console.table(rows);
await client.query('DROP TABLE bench_reviews');
await client.end();
