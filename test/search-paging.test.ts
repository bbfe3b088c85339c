// Paging and sort of GET /api/reviews/search and the MCP search_reviews tool, over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Review } from '../src/core/schema/review.js';
import { BUSINESS } from './fixtures/data.js';
import { startTestService, type TestService } from './helpers.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A valid ULID per number, in the same order as the numbers. */
function ulid(n: number): string {
  let s = '';
  for (let v = n; s.length < 10; v = Math.floor(v / 32)) s = CROCKFORD[v % 32] + s;
  return `01J${'0'.repeat(13)}${s}`;
}

/**
 * 1,234 reviews over 19 days: many share a date, and a date and a rating, so the order rests on
 * the tie-breaks. Every third mentions Al; some have no text, every seventh an owner reply.
 */
const COUNT = 1234;
const REVIEWS: Review[] = Array.from({ length: COUNT }, (_, i) => ({
  // Ids are not in date order, so the id tie-break is visible.
  id: ulid((i * 7919) % 100_003),
  author: `Customer ${i}`,
  author_avatar_url: null,
  rating: 1 + ((i * 13) % 5),
  date: `2026-03-${String(1 + (i % 19)).padStart(2, '0')}`,
  text: i % 3 === 0 ? `Al came on time (${i}).` : i % 5 === 0 ? null : `Visit number ${i}.`,
  source: 'google',
  source_url: null,
  owner_reply: i % 7 === 0 ? { text: 'Thank you!', date: `2026-03-${String(1 + (i % 19)).padStart(2, '0')}` } : null,
  verified: true,
  source_id: null,
}));

type Sort = 'newest' | 'oldest' | 'highest' | 'lowest';
const SORTS: Sort[] = ['newest', 'oldest', 'highest', 'lowest'];

/** The documented order, written independently of the search: date, rating, then id. */
function expected(sort: Sort, keep: (r: Review) => boolean = () => true): string[] {
  const newest = (a: Review, b: Review) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? 1 : -1);
  const order: Record<Sort, (a: Review, b: Review) => number> = {
    newest,
    oldest: (a, b) => -newest(a, b),
    highest: (a, b) => b.rating - a.rating || newest(a, b),
    lowest: (a, b) => a.rating - b.rating || newest(a, b),
  };
  return REVIEWS.filter(keep).sort(order[sort]).map((r) => r.id);
}

interface Page {
  matched: number;
  returned: number;
  reviews: { id: string; url: string }[];
  next_cursor: string | null;
}
interface ErrorBody {
  error: string;
  issues: { parameter: string; code: string; message: string }[];
}

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
});
after(() => svc.close());

async function get(url: string, qs: URLSearchParams): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/api/reviews/search?${qs}`);
  return { status: res.status, body: await res.json() };
}

/** Follows next_cursor from the first page to the last, returning every id in order. */
async function pageThrough(url: string, params: Record<string, string>): Promise<{ ids: string[]; pages: number; matched: Set<number> }> {
  const ids: string[] = [];
  const matched = new Set<number>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const qs = new URLSearchParams(params);
    if (cursor) qs.set('cursor', cursor);
    const { status, body } = await get(url, qs);
    assert.equal(status, 200, JSON.stringify(body));
    const page = body as Page;
    assert.equal(page.returned, page.reviews.length);
    for (const r of page.reviews) assert.equal(r.url, `${url}/reviews/${r.id}`, 'every page carries the permalinks');
    ids.push(...page.reviews.map((r) => r.id));
    matched.add(page.matched);
    cursor = page.next_cursor;
    pages++;
    assert.ok(pages <= COUNT, 'paging ends');
  } while (cursor !== null);
  return { ids, pages, matched };
}

describe('search paging over HTTP', () => {
  for (const sort of SORTS) {
    it(`sort=${sort}: pages to the end, every review exactly once, in order`, async () => {
      const { ids, pages, matched } = await pageThrough(svc.url, { sort, limit: '100' });
      assert.equal(pages, Math.ceil(COUNT / 100));
      assert.deepEqual([...matched], [COUNT]);
      assert.equal(new Set(ids).size, COUNT);
      assert.deepEqual(ids, expected(sort));
    });
    it(`sort=${sort} with filters: pages of 7 through the matches only`, async () => {
      const { ids, matched } = await pageThrough(svc.url, { sort, limit: '7', mentions_technician: 'Al', since: '2026-03-04', until: '2026-03-15' });
      const want = expected(sort, (r) => r.text?.startsWith('Al ') === true && r.date >= '2026-03-04' && r.date <= '2026-03-15');
      assert.deepEqual([...matched], [want.length]);
      assert.deepEqual(ids, want);
    });
  }

  it('a star filter with a star sort pages through; a last page that is exactly full has next_cursor null', async () => {
    const want = expected('lowest', (r) => r.rating >= 4);
    assert.deepEqual((await pageThrough(svc.url, { sort: 'lowest', min_rating: '4', limit: '100' })).ids, want);
    const oneDay = { sort: 'lowest', min_rating: '4', since: '2026-03-02', until: '2026-03-02' };
    const n = expected('lowest', (r) => r.rating >= 4 && r.date === '2026-03-02').length;
    assert.ok(n > 1 && n <= 100);
    const full = (await get(svc.url, new URLSearchParams({ ...oneDay, limit: String(n) }))).body as Page;
    assert.deepEqual([full.returned, full.next_cursor], [n, null]);
    const short = (await get(svc.url, new URLSearchParams({ ...oneDay, limit: String(n - 1) }))).body as Page;
    const rest = (await get(svc.url, new URLSearchParams({ ...oneDay, limit: '1', cursor: short.next_cursor! }))).body as Page;
    assert.deepEqual([rest.returned, rest.next_cursor], [1, null]);
  });

  it('with_text and with_reply filter on text and owner reply, true or false, and page like the rest', async () => {
    for (const [params, keep] of [
      [{ with_text: 'true' }, (r: Review) => r.text !== null],
      [{ with_text: 'false' }, (r: Review) => r.text === null],
      [{ with_reply: 'true', sort: 'lowest' }, (r: Review) => r.owner_reply !== null],
      [{ with_reply: 'false', with_text: 'true', sort: 'highest' }, (r: Review) => r.owner_reply === null && r.text !== null],
    ] as const) {
      const { ids, matched } = await pageThrough(svc.url, { ...params, limit: '100' });
      const want = expected('sort' in params ? params.sort : 'newest', keep);
      assert.ok(want.length > 0 && want.length < COUNT);
      assert.deepEqual([...matched], [want.length], JSON.stringify(params));
      assert.deepEqual(ids, want, JSON.stringify(params));
    }
    const { status, body } = await get(svc.url, new URLSearchParams({ with_text: 'yes' }));
    assert.equal(status, 400);
    assert.deepEqual((body as ErrorBody).issues.map((i) => [i.parameter, i.message]), [['with_text', 'must be true or false (got "yes")']]);
    const first = (await get(svc.url, new URLSearchParams({ with_text: 'true', limit: '5' }))).body as Page;
    await invalidCursor(new URLSearchParams({ with_text: 'false', limit: '5', cursor: first.next_cursor! }), /different search/);
  });

  it('newest is the default, and the first page is what it was before paging existed', async () => {
    const plain = (await get(svc.url, new URLSearchParams({ limit: '20' }))).body as Page;
    const newest = (await get(svc.url, new URLSearchParams({ limit: '20', sort: 'newest' }))).body as Page;
    assert.deepEqual(plain, newest);
    assert.deepEqual(plain.reviews.map((r) => r.id), expected('newest').slice(0, 20));
    assert.equal(plain.matched, COUNT);
    assert.equal(((await get(svc.url, new URLSearchParams())).body as Page).returned, 20, 'limit still defaults to 20');
  });

  it('ties are broken the same way every time', async () => {
    const qs = new URLSearchParams({ sort: 'highest', limit: '100', since: '2026-03-07', until: '2026-03-07' });
    const a = (await get(svc.url, qs)).body as Page;
    const b = (await get(svc.url, qs)).body as Page;
    assert.deepEqual(a, b);
    assert.deepEqual(a.reviews.map((r) => r.id), expected('highest', (r) => r.date === '2026-03-07'));
  });

  it('the page size may change between pages', async () => {
    const first = (await get(svc.url, new URLSearchParams({ sort: 'oldest', limit: '10' }))).body as Page;
    const second = (await get(svc.url, new URLSearchParams({ sort: 'oldest', limit: '25', cursor: first.next_cursor! }))).body as Page;
    assert.deepEqual([...first.reviews, ...second.reviews].map((r) => r.id), expected('oldest').slice(0, 35));
  });

  const invalidCursor = async (qs: URLSearchParams, message: RegExp) => {
    const { status, body } = await get(svc.url, qs);
    assert.equal(status, 400, JSON.stringify(body));
    const err = body as ErrorBody;
    assert.equal(err.error, 'validation_error');
    assert.deepEqual(err.issues.map((i) => [i.parameter, i.code]), [['cursor', 'invalid_cursor']]);
    assert.match(err.issues[0]!.message, message);
    assert.match(err.issues[0]!.message, /start again from the first page/);
  };

  it('refuses a garbled or altered cursor with 400 invalid_cursor', async () => {
    const first = (await get(svc.url, new URLSearchParams({ limit: '5' }))).body as Page;
    const cursor = first.next_cursor!;
    // Junk after a valid cursor too ("A", "==", "x"): Node's base64url decoder would drop it and read the cursor.
    for (const bad of ['garbage', '%%%', Buffer.from('{"v":1}').toString('base64url'), cursor.slice(0, -3), `x${cursor}`, `${cursor}x`, `${cursor}A`, `${cursor}==`, `${cursor} `]) {
      await invalidCursor(new URLSearchParams({ limit: '5', cursor: bad }), /not one this service issued|different search or|altered/);
    }
    // A well-formed cursor pointing elsewhere: the position edited, the check left as it was.
    const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { p: number };
    payload.p += 1;
    await invalidCursor(new URLSearchParams({ limit: '5', cursor: Buffer.from(JSON.stringify(payload)).toString('base64url') }), /altered/);
  });

  it('refuses a cursor from another search (other filters or sort) with 400 invalid_cursor', async () => {
    const first = (await get(svc.url, new URLSearchParams({ limit: '5', rating: '5' }))).body as Page;
    await invalidCursor(new URLSearchParams({ limit: '5', rating: '4', cursor: first.next_cursor! }), /different search/);
    await invalidCursor(new URLSearchParams({ limit: '5', rating: '5', sort: 'oldest', cursor: first.next_cursor! }), /different search/);
  });

  it('refuses an unknown sort with the validation body', async () => {
    const { status, body } = await get(svc.url, new URLSearchParams({ sort: 'best' }));
    assert.equal(status, 400);
    assert.deepEqual((body as ErrorBody).issues.map((i) => i.parameter), ['sort']);
  });

  it('refuses a cursor once the data has changed, and the first page then works', async () => {
    const other = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 50) });
    try {
      const first = (await get(other.url, new URLSearchParams({ limit: '10' }))).body as Page;
      // Unchanged data: the cursor keeps working, however often it is used.
      for (let i = 0; i < 2; i++) assert.equal((await get(other.url, new URLSearchParams({ limit: '10', cursor: first.next_cursor! }))).status, 200);
      await other.store.importReviews({ reviews: REVIEWS.slice(50, 51), replace: false, dryRun: false });
      await other.server.live.refresh();
      const { status, body } = await get(other.url, new URLSearchParams({ limit: '10', cursor: first.next_cursor! }));
      assert.equal(status, 400);
      const issue = (body as ErrorBody).issues[0]!;
      assert.deepEqual([issue.parameter, issue.code], ['cursor', 'invalid_cursor']);
      assert.match(issue.message, /the reviews changed since this cursor was issued/);
      const { ids } = await pageThrough(other.url, { limit: '10' });
      assert.equal(ids.length, 51);
    } finally {
      await other.close();
    }
  });
});

describe('search paging over MCP', () => {
  let sid: string;
  let id = 1;
  async function rpc(body: unknown): Promise<{ result: { isError?: boolean; structuredContent: Page; content: { text: string }[] } }> {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : {}) },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200);
    if (!sid) sid = res.headers.get('mcp-session-id')!;
    return (await res.json()) as never;
  }
  const search = (args: Record<string, unknown>) => rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'search_reviews', arguments: args } });

  before(async () => {
    await rpc({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
  });

  for (const sort of SORTS) {
    it(`search_reviews sort=${sort}: pages to the end with cursor, every review once, in the same order as HTTP`, async () => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const { result } = await search({ sort, limit: 100, ...(cursor ? { cursor } : {}) });
        assert.ok(!result.isError, JSON.stringify(result));
        for (const r of result.structuredContent.reviews) assert.equal(r.url, `${svc.url}/reviews/${r.id}`);
        ids.push(...result.structuredContent.reviews.map((r) => r.id));
        cursor = result.structuredContent.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(ids, expected(sort));
    });
  }

  it('search_reviews takes with_text and with_reply as JSON booleans', async () => {
    const { result } = await search({ with_reply: true, with_text: true, limit: 100 });
    assert.ok(!result.isError, JSON.stringify(result));
    assert.deepEqual(result.structuredContent.reviews.map((r) => r.id), expected('newest', (r) => r.owner_reply !== null && r.text !== null).slice(0, 100));
    for (const text of ['true', 'false']) {
      const typed = await search({ with_text: text });
      assert.equal(typed.result.isError, true, `"${text}" is text, not a JSON boolean`);
      assert.match(typed.result.content[0]!.text, /argument "with_text": must be true or false/);
    }
  });

  it('search_reviews answers a bad cursor with an error result that says to start again', async () => {
    const { result } = await search({ cursor: 'garbage' });
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /cursor.*start again from the first page/);
  });

  it('lists sort and cursor in the tool input schema', async () => {
    const list = (await rpc({ jsonrpc: '2.0', id: id++, method: 'tools/list' })) as unknown as { result: { tools: { name: string; inputSchema: { properties: Record<string, { enum?: string[] }> }; outputSchema: { properties: Record<string, unknown> } }[] } };
    const tool = list.result.tools.find((t) => t.name === 'search_reviews')!;
    assert.deepEqual(tool.inputSchema.properties.sort!.enum, SORTS);
    assert.ok('cursor' in tool.inputSchema.properties);
    assert.ok('next_cursor' in tool.outputSchema.properties);
  });
});
