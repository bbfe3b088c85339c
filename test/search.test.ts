import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publishHits, searchReviews, buildReviewIndex } from '../src/core/search.js';
import { SearchQuerySchema } from '../src/core/schema/search.js';
import { fromQueryString } from '../src/core/schema/query-string.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { startTestService, type TestService } from './helpers.js';

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
});
after(() => svc.close());

interface Body {
  matched: number;
  returned: number;
  reviews: { id: string; author: string; rating: number; date: string }[];
}

async function search(qs: string): Promise<Body> {
  const res = await fetch(`${svc.url}/api/reviews/search${qs ? `?${qs}` : ''}`);
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type')!, /^application\/json/);
  return (await res.json()) as Body;
}

/** Authors' numbers, in response order: a compact way to state the expected set and order. */
async function ids(qs: string): Promise<number[]> {
  return (await search(qs)).reviews.map((r) => Number(r.author.split(' ')[1]));
}

describe('GET /api/reviews/search filters', () => {
  it('with no filters returns everything newest first, ties broken by id', async () => {
    const body = await search('');
    assert.equal(body.matched, 8);
    assert.equal(body.returned, 8);
    assert.deepEqual(await ids(''), [8, 7, 6, 5, 4, 3, 2, 1]);
  });
  it('rating matches exactly', async () => assert.deepEqual(await ids('rating=5'), [7, 6, 1]));
  it('min_rating is inclusive and takes decimals', async () => {
    assert.deepEqual(await ids('min_rating=4'), [8, 7, 6, 2, 1]);
    assert.deepEqual(await ids('min_rating=4.5'), [7, 6, 1]);
  });
  it('since and until are inclusive', async () => {
    assert.deepEqual(await ids('since=2026-03-15'), [8, 7, 6, 5, 4]);
    assert.deepEqual(await ids('until=2026-02-28'), [3, 2, 1]);
    assert.deepEqual(await ids('since=2026-03-15&until=2026-03-15'), [5, 4]);
  });
  it('query is a case-insensitive substring of the text, never matching rating-only reviews', async () => {
    assert.deepEqual(await ids('query=DRAIN'), [7, 4, 2]);
    assert.deepEqual(await ids('query=%C3%BCn%C3%AFcode'), [7]);
    assert.deepEqual(await ids('query=zzz'), []);
  });
  it('mentions_technician matches name or alias as a whole word', async () => {
    assert.deepEqual(await ids('mentions_technician=Al'), [7, 2, 1]);
    assert.deepEqual(await ids('mentions_technician=alberto'), [7, 2, 1]);
    assert.deepEqual(await ids('mentions_technician=Beatrice'), [5, 4]);
    // Not on the roster: matched literally, still as a whole word.
    assert.deepEqual(await ids('mentions_technician=co'), [7]);
  });
  it('mentions_service matches a service by id, label or alias', async () => {
    assert.deepEqual(await ids('mentions_service=ac_repair'), [5, 3, 1]);
    assert.deepEqual(await ids('mentions_service=AC%20repair'), [5, 3, 1]);
    assert.deepEqual(await ids('mentions_service=drain'), [7, 4, 2]);
    assert.deepEqual(await ids('mentions_service=no_such_service'), []);
  });
  it('limit caps returned but not matched', async () => {
    const body = await search('limit=2');
    assert.equal(body.matched, 8);
    assert.equal(body.returned, 2);
    assert.equal(body.reviews.length, 2);
  });
  it('defaults limit to 20', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ ...REVIEWS[0]!, id: `01J${String(i).padStart(23, '0')}`, author: `Bulk ${i}` }));
    const other = await startTestService({ business: BUSINESS, reviews: many });
    try {
      const body = (await (await fetch(`${other.url}/api/reviews/search`)).json()) as Body;
      assert.equal(body.matched, 30);
      assert.equal(body.returned, 20);
      const max = (await (await fetch(`${other.url}/api/reviews/search?limit=100`)).json()) as Body;
      assert.equal(max.returned, 30);
    } finally {
      await other.close();
    }
  });
  it('combines every filter', async () => {
    assert.deepEqual(await ids('min_rating=2&since=2026-02-01&until=2026-04-30&mentions_service=drain'), [7, 2]);
    assert.deepEqual(await ids('rating=5&mentions_technician=Al&query=price'), [1]);
    assert.deepEqual(await ids('rating=2&mentions_technician=Bea&mentions_service=AC&query=polite&since=2026-03-15&until=2026-03-15&limit=1'), [5]);
    assert.deepEqual(await ids('rating=1&mentions_technician=Al'), []);
  });
  it('returns reviews with every field', async () => {
    const res = await fetch(`${svc.url}/api/reviews/search?rating=1`);
    const body = (await res.json()) as { reviews: Record<string, unknown>[] };
    assert.deepEqual(body.reviews[0], { ...REVIEWS[3], url: `${svc.url}/reviews/${REVIEWS[3]!.id}` }, 'the stored review and its permalink');
  });
});

describe('a technician or service the business profile does not know', () => {
  const techNotice = {
    parameter: 'mentions_technician',
    message: '"Bob" is not a technician on the business\'s roster, so reviews were matched on that word alone. On the roster: Al (Alberto); Bea (Beatrice).',
    known: ['Al', 'Bea'],
  };
  it('HTTP: still 200 with the literal matches, and a notice naming the roster', async () => {
    const res = await fetch(`${svc.url}/api/reviews/search?mentions_technician=Bob`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as Body & { notices?: unknown };
    assert.equal(body.matched, 0);
    assert.deepEqual(body.notices, [techNotice]);
    // A word that is not on the roster still matches where a review has it.
    const co = (await (await fetch(`${svc.url}/api/reviews/search?mentions_technician=co`)).json()) as Body & { notices?: { message: string }[] };
    assert.equal(co.matched, 1);
    assert.match(co.notices![0]!.message, /^"co" is not a technician/);
    const svcBody = (await (await fetch(`${svc.url}/api/reviews/search?mentions_service=no_such_service&mentions_technician=alberto`)).json()) as { notices?: unknown };
    assert.deepEqual(svcBody.notices, [
      {
        parameter: 'mentions_service',
        message: '"no_such_service" is not a service of the business profile, so reviews were matched on those words alone. Services: ac_repair (AC repair, air conditioner, AC); drain_cleaning (Drain cleaning, clogged drain, drain).',
        known: ['ac_repair', 'drain_cleaning'],
      },
    ]);
  });
  it('HTTP: a name or alias on the roster, and a known service, bring no notices', async () => {
    for (const qs of ['mentions_technician=AL', 'mentions_technician=%20beatrice%20', 'mentions_service=AC%20repair', 'rating=5']) {
      const body = (await (await fetch(`${svc.url}/api/reviews/search?${qs}`)).json()) as Record<string, unknown>;
      assert.ok(!('notices' in body), qs);
    }
  });
  it('MCP search_reviews answers the same notice; get_technician lists the same names the same way', async () => {
    const post = async (sid: string | null, body: unknown) =>
      fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : {}) },
        body: JSON.stringify(body),
      });
    const init = await post(null, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    const sid = init.headers.get('mcp-session-id')!;
    const call = async (name: string, args: unknown) =>
      ((await (await post(sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })).json()) as { result: { isError?: boolean; structuredContent?: { notices?: unknown }; content: { text: string }[] } }).result;
    const search = await call('search_reviews', { mentions_technician: 'Bob' });
    assert.ok(!search.isError, JSON.stringify(search));
    assert.deepEqual(search.structuredContent!.notices, [techNotice]);
    const tech = await call('get_technician', { name: 'Bob' });
    assert.equal(tech.isError, true);
    assert.match(tech.content[0]!.text, /Valid names: Al \(Alberto\); Bea \(Beatrice\)\.$/);
  });
});

describe('a search answer cut from the published reviews\' bytes', () => {
  it('is byte for byte JSON.stringify of the published hits, with an ETag that follows its content', async () => {
    // The reviews as the store holds them (their keys in its order) and its revision (cursors name it), as the server has them.
    const { reviews, revision } = await svc.store.load();
    const index = buildReviewIndex(BUSINESS, reviews, `${revision.revision}@${revision.updated_at}`);
    const tags = new Map<string, string>();
    for (const qs of ['', 'limit=1', 'limit=3&sort=oldest', 'sort=highest&limit=4', 'query=zzqx', 'mentions_technician=Nobody%20Known', 'min_rating=4&with_reply=false', 'limit=2&query=%22']) {
      const q = SearchQuerySchema.parse(fromQueryString(SearchQuerySchema, Object.fromEntries(new URLSearchParams(qs))));
      const res = await fetch(`${svc.url}/api/reviews/search?${qs}`, { headers: { 'accept-encoding': 'identity' } });
      const body = Buffer.from(await res.arrayBuffer());
      assert.equal(body.toString(), JSON.stringify(publishHits(searchReviews(index, q), svc.url)), qs);
      tags.set(body.toString(), res.headers.get('etag')!);
    }
    assert.equal(new Set(tags.values()).size, tags.size, 'different answers, different tags');
    const again = await fetch(`${svc.url}/api/reviews/search?limit=1`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(again.headers.get('etag'), tags.get(await again.text()), 'the same answer, the same tag');
  });
});

describe('GET /api/reviews/search validation', () => {
  async function issues(qs: string): Promise<{ parameter: string; code: string; message: string }[]> {
    const res = await fetch(`${svc.url}/api/reviews/search?${qs}`);
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    const body = (await res.json()) as { error: string; message: string; issues: { parameter: string; code: string; message: string }[] };
    assert.equal(body.error, 'validation_error');
    assert.ok(Array.isArray(body.issues) && body.issues.length > 0);
    for (const i of body.issues) assert.ok(i.message.length > 0);
    return body.issues;
  }
  const cases: [string, string][] = [
    ['rating=0', 'rating'],
    ['rating=6', 'rating'],
    ['rating=4.5', 'rating'],
    ['rating=five', 'rating'],
    ['rating=', 'rating'],
    ['rating=true', 'rating'],
    ['rating=[5]', 'rating'],
    ['limit=true', 'limit'],
    ['min_rating=0.5', 'min_rating'],
    ['min_rating=5.1', 'min_rating'],
    ['min_rating=x', 'min_rating'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=2.5', 'limit'],
    ['since=2026-02-30', 'since'],
    ['since=2026-13-01', 'since'],
    ['until=20260101', 'until'],
    ['since=yesterday', 'since'],
    ['since=2026-05-01&until=2026-04-01', 'until'],
    ['query=', 'query'],
    ['mentions_technician=', 'mentions_technician'],
    ['mentions_service=', 'mentions_service'],
    ['sort=date', 'sort'],
    ['cursor=', 'cursor'],
    ['rating=5&rating=4', 'rating'],
  ];
  for (const [qs, parameter] of cases) {
    it(`rejects ${qs} naming ${parameter}`, async () => {
      const found = await issues(qs);
      assert.ok(found.some((i) => i.parameter === parameter), JSON.stringify(found));
    });
  }
  it('names unknown and repeated parameters with their own codes', async () => {
    const found = await issues('order=date&limit=1&limit=2');
    assert.deepEqual(found.map((i) => [i.parameter, i.code]).sort(), [['limit', 'repeated_parameter'], ['order', 'unknown_parameter']]);
    assert.match(found.find((i) => i.parameter === 'order')!.message, /known parameters: rating, min_rating.*sort, cursor/);
  });
  it('text that is not a number is the wrong type, not a number out of range', async () => {
    for (const [qs, message] of [
      ['rating=true', 'must be a whole number from 1 to 5 (got "true")'],
      ['rating=', 'must be a whole number from 1 to 5 (got "")'],
      ['limit=null', 'must be a whole number from 1 to 100 (got "null")'],
    ]) {
      const [issue] = await issues(qs!);
      assert.equal(issue!.code, 'invalid_type', qs);
      assert.equal(issue!.message, message, qs);
    }
  });
  it('each parameter has one plain message, whatever is wrong with it, defined with the schema', async () => {
    const cases: [string, string, string][] = [
      ['rating=4.5', 'rating', 'must be a whole number from 1 to 5 (got "4.5")'],
      ['rating=five', 'rating', 'must be a whole number from 1 to 5 (got "five")'],
      ['rating=6', 'rating', 'must be a whole number from 1 to 5 (got "6")'],
      ['min_rating=0.5', 'min_rating', 'must be a number from 1 to 5, e.g. 4 or 4.5 (got "0.5")'],
      ['min_rating=x', 'min_rating', 'must be a number from 1 to 5, e.g. 4 or 4.5 (got "x")'],
      ['since=2026-02-30', 'since', 'must be a real date written YYYY-MM-DD, e.g. 2026-03-14 (got "2026-02-30")'],
      ['until=20260101', 'until', 'must be a real date written YYYY-MM-DD, e.g. 2026-03-14 (got "20260101")'],
      ['since=2026-05-01&until=2026-04-01', 'until', 'since must not be after until (got "2026-04-01")'],
      ['query=', 'query', 'must be 1 to 200 characters of text (got "")'],
      ['mentions_technician=', 'mentions_technician', 'must be a technician\'s name or alias, 1 to 100 characters (got "")'],
      ['mentions_service=', 'mentions_service', 'must be a service id, label or alias, 1 to 100 characters (got "")'],
      ['limit=0', 'limit', 'must be a whole number from 1 to 100 (got "0")'],
      ['limit=2.5', 'limit', 'must be a whole number from 1 to 100 (got "2.5")'],
      ['with_text=1', 'with_text', 'must be true or false (got "1")'],
      ['with_reply=yes', 'with_reply', 'must be true or false (got "yes")'],
      ['sort=date', 'sort', 'must be newest, oldest, highest or lowest (got "date")'],
      ['cursor=', 'cursor', 'must be the next_cursor of an earlier answer, as given (got "")'],
    ];
    for (const [qs, parameter, message] of cases) {
      const found = await issues(qs);
      assert.deepEqual(found.map((i) => [i.parameter, i.message]), [[parameter, message]], qs);
    }
    // Every parameter of the schema is in the table above: a new one gets its message too.
    assert.deepEqual([...new Set(cases.map(([, p]) => p))].sort(), Object.keys(SearchQuerySchema.shape).sort());
  });
  it('quotes what was sent cut to 40 characters, never a whole long value', async () => {
    const long = 'a'.repeat(201);
    const [tooLong] = await issues(`query=${long}`);
    assert.equal(tooLong!.code, 'too_big');
    assert.equal(tooLong!.message, `must be 1 to 200 characters of text (got "${'a'.repeat(40)}…")`);
    const [unknown] = await issues(`${'b'.repeat(60)}=1`);
    assert.equal(unknown!.code, 'unknown_parameter');
    assert.match(unknown!.message, new RegExp(`^unknown parameter "${'b'.repeat(40)}…"; known parameters: rating,`));
    // Up to 40 characters a value is quoted whole; characters are counted, so none is cut in half.
    const forty = '🙂'.repeat(40);
    const [whole] = await issues(`rating=${encodeURIComponent(forty)}`);
    assert.equal(whole!.message, `must be a whole number from 1 to 5 (got "${forty}")`);
    const [cut] = await issues(`rating=${encodeURIComponent(`${forty}🙂`)}`);
    assert.equal(cut!.message, `must be a whole number from 1 to 5 (got "${forty}…")`);
  });
  it('a parameter that is not valid percent-encoded UTF-8 is refused, never searched for as its raw text', async () => {
    for (const [qs, parameter, got] of [
      ['query=%ff', 'query', '%ff'],
      ['query=caf%E9', 'query', 'caf%E9'],
      ['query=100%', 'query', '100%'],
      ['q%ff=1', 'q%ff', '1'],
    ]) {
      const found = await issues(qs!);
      assert.deepEqual(
        found.map((i) => [i.parameter, i.code, i.message]),
        [[parameter, 'invalid_encoding', `must be valid percent-encoded UTF-8: é is %C3%A9, and a literal "%" is %25 (got "${got}")`]],
        qs,
      );
    }
    // With another problem, both are named.
    assert.deepEqual((await issues('query=%ff&rating=9')).map((i) => [i.parameter, i.code]), [['query', 'invalid_encoding'], ['rating', 'too_big']]);
    // Valid percent-encoding, "+" for a space, and a literal "%" as %25 still search.
    assert.equal((await search('query=heat%20exchanger')).matched, 1);
    assert.equal((await search('query=heat+exchanger')).matched, 1);
    assert.equal((await search('query=fa%C3%A7ade')).matched, 1);
    assert.equal((await search('query=100%25')).matched, 0);
  });
  it('reports every problem at once', async () => {
    const found = await issues('rating=9&limit=0&since=2026-02-30');
    assert.deepEqual(found.map((i) => i.parameter).sort(), ['limit', 'rating', 'since']);
  });
});

describe('GET /api/reviews/since/{date}', () => {
  it('returns reviews dated on or after the date, newest first', async () => {
    const res = await fetch(`${svc.url}/api/reviews/since/2026-03-15`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { since: string; count: number; reviews: { author: string }[] };
    assert.equal(body.since, '2026-03-15');
    assert.equal(body.count, 5);
    assert.deepEqual(body.reviews.map((r) => r.author), ['Customer 8', 'Customer 7', 'Customer 6', 'Customer 5', 'Customer 4']);
  });
  it('returns an empty list after the newest review', async () => {
    const body = (await (await fetch(`${svc.url}/api/reviews/since/2030-01-01`)).json()) as { count: number; reviews: unknown[] };
    assert.equal(body.count, 0);
    assert.deepEqual(body.reviews, []);
  });
  it('refuses query parameters, by name, as search refuses those it does not know', async () => {
    for (const qs of ['limit=2', 'foo=bar', 'since=2026-01-01']) {
      const res = await fetch(`${svc.url}/api/reviews/since/2026-03-15?${qs}`);
      assert.equal(res.status, 400, qs);
      const body = (await res.json()) as { error: string; message: string; issues: { parameter: string; code: string; message: string }[] };
      const name = qs.split('=')[0];
      assert.deepEqual(body, {
        error: 'validation_error',
        message: 'Invalid query parameters',
        issues: [{ parameter: name, code: 'unknown_parameter', message: `unknown parameter "${name}"; this endpoint takes no query parameters` }],
      });
    }
    // The same body as search's for an unknown parameter: only the list of known ones differs.
    const search = (await (await fetch(`${svc.url}/api/reviews/search?foo=bar`)).json()) as { error: string; message: string; issues: { code: string }[] };
    assert.deepEqual([search.error, search.message, search.issues[0]!.code], ['validation_error', 'Invalid query parameters', 'unknown_parameter']);
    // A bad date and a parameter: both named at once; a value that is not UTF-8 is named as such.
    const both = (await (await fetch(`${svc.url}/api/reviews/since/2026-02-30?limit=2`)).json()) as { message: string; issues: { parameter: string; code: string }[] };
    assert.equal(both.message, 'Invalid path and query parameters');
    assert.deepEqual(both.issues.map((i) => [i.parameter, i.code]), [['date', 'invalid_format'], ['limit', 'unknown_parameter']]);
    const encoding = (await (await fetch(`${svc.url}/api/reviews/since/2026-03-15?x=%ff`)).json()) as { issues: { parameter: string; code: string }[] };
    assert.deepEqual(encoding.issues.map((i) => [i.parameter, i.code]), [['x', 'invalid_encoding']]);
    // Without a query string, or with an empty one, it answers.
    assert.equal((await fetch(`${svc.url}/api/reviews/since/2026-03-15?`)).status, 200);
  });
  it('the OpenAPI document lists no query parameter for it and says others are refused', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as {
      paths: Record<string, { get: { description: string; parameters: { name: string; in: string }[]; responses: Record<string, { description: string }> } }>;
    };
    const since = doc.paths['/api/reviews/since/{date}']!.get;
    assert.deepEqual(since.parameters.filter((p) => p.in === 'query'), []);
    assert.match(since.description, /takes no query parameters: any is refused \(400, issue code `unknown_parameter`\)/);
    for (const path of ['/api/reviews/since/{date}', '/api/reviews/search', '/embed.json']) assert.match(doc.paths[path]!.get.responses['400']!.description, /unknown, repeated.*`invalid_encoding`/, path);
  });
  for (const bad of ['2026-02-30', 'yesterday', '2026-1-5', '20260105']) {
    it(`rejects the malformed date ${bad} with the validation body`, async () => {
      const res = await fetch(`${svc.url}/api/reviews/since/${bad}`);
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: string; issues: { parameter: string }[] };
      assert.equal(body.error, 'validation_error');
      assert.equal(body.issues[0]!.parameter, 'date');
    });
  }
});
