// The MCP endpoint over real HTTP: tools and their argument errors, sessions and Origin checks, prompts, completions, resources, subscriptions and paging.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOOL_ANSWER_MAX_BYTES } from '../src/core/schema/search.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_GUIDE } from '../src/mcp/catalogue.js';
import { TOOLS } from '../src/mcp/tools.js';
import { MAX_SUBSCRIPTIONS } from '../src/mcp/streams.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { eventually, freshDatabase, startTestService, type TestService } from './helpers.js';

const ACCEPT = 'application/json, text/event-stream';
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } };

interface Rpc {
  status: number;
  headers: Headers;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string } } | null;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Rpc> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Rpc['body']) : null };
}

async function initialize(url: string): Promise<string> {
  const res = await post(url, INIT);
  assert.equal(res.status, 200);
  const sid = res.headers.get('mcp-session-id');
  assert.ok(sid);
  return sid;
}

/** A GET /mcp event stream read as JSON-RPC messages, as they come. */
interface Stream {
  response: Response;
  messages: { method: string; params?: { uri?: string } }[];
  /** Whether the server ended the stream. */
  ended: boolean;
  close(): void;
}

async function openStream(url: string, session: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, signal: abort.signal });
  assert.equal(response.status, 200);
  const stream: Stream = { response, messages: [], ended: false, close: () => abort.abort() };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) {
        stream.ended = true;
        return;
      }
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        buffer = buffer.slice(end + 2);
        if (data) stream.messages.push(JSON.parse(data) as Stream['messages'][number]);
      }
    }
  })();
  return stream;
}

let svc: TestService;
let sid: string;
let n = 1;
async function call(name: string, args: Record<string, unknown> = {}) {
  const res = await post(svc.url, { jsonrpc: '2.0', id: n++, method: 'tools/call', params: { name, arguments: args } }, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(res.status, 200);
  return res.body!;
}
async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const body = await call(name, args);
  const result = body.result as { isError?: boolean; structuredContent: Record<string, unknown>; content: { type: string; text: string }[] };
  assert.ok(!result.isError, JSON.stringify(result));
  assert.deepEqual(JSON.parse(result.content[0]!.text), result.structuredContent, 'text and structuredContent carry the same JSON');
  return result.structuredContent;
}
async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await call(name, args)).result as { isError?: boolean; content: { text: string }[] };
  assert.equal(result.isError, true);
  return result.content[0]!.text;
}

before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, mcp: { allowedOrigins: ['https://inspector.example'] } });
  sid = await initialize(svc.url);
});
after(() => svc.close());

describe('MCP: initialize and tools/list', () => {
  it('initialize answers with the server, its instructions and capabilities, and a session id', async () => {
    const res = await post(svc.url, INIT);
    const result = res.body!.result as { protocolVersion: string; serverInfo: { name: string }; instructions: string; capabilities: Record<string, unknown> };
    assert.equal(result.protocolVersion, '2025-06-18');
    assert.equal(result.serverInfo.name, 'reviewcast');
    assert.match(result.instructions, /Test Plumbing & Air/);
    assert.deepEqual(Object.keys(result.capabilities).sort(), ['completions', 'logging', 'prompts', 'resources', 'tools']);
    assert.deepEqual(result.capabilities.resources, { subscribe: true, listChanged: true });
    assert.ok(result.instructions.endsWith(SERVER_GUIDE), 'the instructions end with the guide /developers/mcp shows');
    const page = await (await fetch(`${svc.url}/developers/mcp`)).text();
    assert.ok(page.includes(SERVER_GUIDE), '/developers/mcp shows the same guide');
    for (const prompt of ['summarise_aspect', 'draft_reply', 'completion/complete', 'resources/subscribe', 'next_cursor']) assert.ok(page.includes(prompt), prompt);
    assert.match(res.headers.get('access-control-expose-headers')!, /Mcp-Session-Id/);
  });
  it('lists at least 9 read-only tools, each described, with described arguments and an output schema', async () => {
    const res = await post(svc.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sid });
    const tools = (res.body!.result as { tools: { name: string; description: string; inputSchema: { properties?: Record<string, { description?: string }> }; outputSchema: { type: string }; annotations: Record<string, boolean> }[] }).tools;
    assert.ok(tools.length >= 9);
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'get_aspect_sentiment', 'get_business', 'get_faq', 'get_review', 'get_reviews_since', 'get_service', 'get_summary', 'get_technician', 'get_trends', 'list_aspects', 'search_reviews',
    ]);
    for (const t of tools) {
      assert.equal(t.annotations.readOnlyHint, true, t.name);
      assert.equal(t.annotations.openWorldHint, false, t.name);
      assert.ok(t.description.length > 40, t.name);
      assert.equal(t.outputSchema.type, 'object', t.name);
      for (const [arg, schema] of Object.entries(t.inputSchema.properties ?? {})) assert.ok(schema.description, `${t.name}.${arg} has a description`);
    }
    const search = tools.find((t) => t.name === 'search_reviews')!;
    assert.deepEqual(Object.keys(search.inputSchema.properties!).sort(), ['cursor', 'limit', 'mentions_service', 'mentions_technician', 'min_rating', 'query', 'rating', 'short_texts', 'since', 'sort', 'until', 'with_reply', 'with_text']);
  });
});

describe('MCP: every tool', () => {
  it('get_business', async () => {
    const out = (await ok('get_business')) as { business: { name: string }; aggregate_rating: { review_count: number } };
    assert.equal(out.business.name, BUSINESS.name);
    assert.equal(out.aggregate_rating.review_count, 8);
  });
  it('search_reviews gives exactly what GET /api/reviews/search gives', async () => {
    const out = await ok('search_reviews', { min_rating: 2, mentions_service: 'drain', since: '2026-02-01', limit: 5 });
    const http = await (await fetch(`${svc.url}/api/reviews/search?min_rating=2&mentions_service=drain&since=2026-02-01&limit=5`)).json();
    assert.deepEqual(out, http);
    assert.deepEqual([out.matched, out.returned], [2, 2]);
  });
  it('get_review returns the review, its analysis and the sentences behind each aspect judgement; an unknown id is a helpful error', async () => {
    type Out = { review: unknown; analysis: { sentiment: string; aspects: { aspect: string; polarity: string }[] }; evidence: { sentence: string; aspect: string; polarity: string }[] };
    const out = (await ok('get_review', { id: REVIEWS[3]!.id })) as Out;
    assert.deepEqual(out.review, { ...REVIEWS[3], url: `${svc.url}/reviews/${REVIEWS[3]!.id}` });
    assert.equal(out.analysis.sentiment, 'negative');
    assert.ok(out.evidence.length > 0);
    for (const e of out.evidence) assert.ok(REVIEWS[3]!.text!.includes(e.sentence), e.sentence);
    // Every aspect the analysis reports rests on at least one sentence, with the polarity of one of them.
    for (const a of out.analysis.aspects) assert.ok(out.evidence.some((e) => e.aspect === a.aspect), a.aspect);
    assert.deepEqual([...new Set(out.evidence.map((e) => e.aspect))].sort(), out.analysis.aspects.map((a) => a.aspect).sort());
    assert.match(await toolError('get_review', { id: '01ZZZZZZZZZZZZZZZZZZZZZZZZ' }), /No review has id/);
  });
  it('every review in a tool result carries its permalink as url', async () => {
    const permalink = (r: { id: string; url: string }) => assert.equal(r.url, `${svc.url}/reviews/${r.id}`);
    const search = (await ok('search_reviews', { limit: 100 })) as { reviews: { id: string; url: string }[] };
    assert.equal(search.reviews.length, REVIEWS.length);
    search.reviews.forEach(permalink);
    ((await ok('get_reviews_since', { date: '2026-01-01' })) as { reviews: { id: string; url: string }[] }).reviews.forEach(permalink);
    const tech = (await ok('get_technician', { name: 'Al' })) as { recent_reviews: { id: string; url: string }[] };
    assert.ok(tech.recent_reviews.length > 0);
    tech.recent_reviews.forEach(permalink);
    ((await ok('get_service', { service: 'ac_repair' })) as { recent_reviews: { id: string; url: string }[] }).recent_reviews.forEach(permalink);
  });
  it('get_reviews_since', async () => {
    const out = (await ok('get_reviews_since', { date: '2026-04-01' })) as { count: number };
    assert.equal(out.count, 3);
  });
  it('list_aspects and get_aspect_sentiment by id and by label; an unknown aspect lists the valid ones', async () => {
    const list = (await ok('list_aspects')) as { aspects: { id: string }[] };
    assert.equal(list.aspects.length, 10);
    const byId = await ok('get_aspect_sentiment', { aspect: 'punctuality' });
    const byLabel = await ok('get_aspect_sentiment', { aspect: 'PUNCTUALITY' });
    assert.deepEqual(byId, byLabel);
    assert.equal(byId.negative_count, 1);
    const err = await toolError('get_aspect_sentiment', { aspect: 'vibes' });
    assert.match(err, /Unknown aspect "vibes"\. Valid aspects: punctuality \(Punctuality\), pricing/);
  });
  it('get_technician by name or alias; an unknown name lists the valid ones', async () => {
    const al = (await ok('get_technician', { name: 'alberto' })) as { technician: { name: string; mention_count: number }; recent_reviews: unknown[] };
    assert.deepEqual([al.technician.name, al.technician.mention_count, al.recent_reviews.length], ['Al', 3, 3]);
    assert.match(await toolError('get_technician', { name: 'Zed' }), /Valid names: .*Al \(Alberto\)/);
  });
  it('get_service by id, label or alias; an unknown one lists the catalog', async () => {
    const byAlias = (await ok('get_service', { service: 'clogged drain' })) as { service: { id: string; mention_count: number } };
    assert.deepEqual([byAlias.service.id, byAlias.service.mention_count], ['drain_cleaning', 3]);
    assert.deepEqual(await ok('get_service', { service: 'drain_cleaning' }), await ok('get_service', { service: 'Drain cleaning' }));
    assert.match(await toolError('get_service', { service: 'roofing' }), /Valid services: ac_repair \(AC repair, air conditioner, AC\); drain_cleaning/);
  });
  it('get_trends, get_faq and get_summary', async () => {
    const trends = (await ok('get_trends')) as { monthly: unknown[]; trend: { direction: string } };
    assert.equal(trends.monthly.length, 5);
    assert.ok(trends.trend.direction);
    const faq = (await ok('get_faq')) as { faq: { question: string }[] };
    assert.ok(faq.faq.length > 0);
    const summary = (await ok('get_summary')) as { summary: string; review_count: number };
    assert.match(summary.summary, /8 reviews/);
  });
});

describe('MCP: errors', () => {
  it('an unknown tool is JSON-RPC error -32602', async () => {
    const body = await call('nope');
    assert.equal(body.error?.code, -32602);
    assert.match(body.error!.message, /Available tools: get_business/);
  });
  it('invalid arguments are an isError result naming each argument and the fix, not a protocol error', async () => {
    const body = await call('search_reviews', { rating: 9, colour: 'red' });
    assert.equal(body.error, undefined);
    const text = await toolError('search_reviews', { rating: 9, colour: 'red' });
    assert.match(text, /argument "rating": must be a whole number from 1 to 5/);
    assert.match(text, /argument "colour": unknown argument; remove it/);
    assert.match(text, /Fix these and call again/);
    assert.match(await toolError('get_reviews_since', { date: '2026-02-30' }), /argument "date"/);
  });
  it('arguments are JSON: a value of the wrong JSON type is an isError result, never coerced', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['search_reviews', { rating: true }, 'rating'],
      ['search_reviews', { rating: false }, 'rating'],
      ['search_reviews', { rating: '' }, 'rating'],
      ['search_reviews', { rating: null }, 'rating'],
      ['search_reviews', { rating: [5] }, 'rating'],
      ['search_reviews', { rating: '5' }, 'rating'],
      ['search_reviews', { limit: true }, 'limit'],
      ['search_reviews', { min_rating: '4' }, 'min_rating'],
      ['search_reviews', { query: 5 }, 'query'],
      ['search_reviews', { with_text: 'true' }, 'with_text'],
      ['search_reviews', { with_reply: 1 }, 'with_reply'],
      ['get_review', { id: 5 }, 'id'],
      ['get_review', {}, 'id'],
      ['get_reviews_since', { date: 20260101 }, 'date'],
      ['get_aspect_sentiment', { aspect: ['pricing'] }, 'aspect'],
      ['get_technician', { name: null }, 'name'],
      ['get_service', { service: { id: 'ac_repair' } }, 'service'],
      ['get_business', { verbose: true }, 'verbose'],
    ];
    for (const [tool, args, name] of cases) {
      const body = await call(tool, args);
      const what = `${tool} ${JSON.stringify(args)}`;
      assert.equal(body.error, undefined, what);
      const result = body.result as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
      assert.equal(result.isError, true, what);
      assert.equal(result.structuredContent, undefined, what);
      assert.match(result.content[0]!.text, new RegExp(`argument "${name}"`), what);
      assert.doesNotMatch(result.content[0]!.text, /Too small/, what);
    }
    assert.match(await toolError('search_reviews', { rating: true }), /argument "rating": must be a whole number from 1 to 5; send a JSON number/);
    assert.match(await toolError('search_reviews', { with_text: 'true' }), /argument "with_text": must be true or false; send a JSON boolean/);
    assert.equal((await ok('search_reviews', { rating: 5, limit: 1 })).returned, 1, 'JSON numbers are accepted');
  });
  it('each argument has one plain message, defined with its schema, whatever is wrong with it; a missing one is required', async () => {
    assert.match(await toolError('get_reviews_since', { limit: 500 }), /argument "limit": must be a whole number from 1 to 100\. Fix these/);
    assert.match(await toolError('search_reviews', { limit: 101 }), /argument "limit": must be a whole number from 1 to 100\. Fix these/, 'the same words as get_reviews_since');
    assert.match(await toolError('get_technician', { name: '' }), /argument "name": must be a technician's name or alias/);
    assert.match(await toolError('get_review', {}), /argument "id": is required\. Fix these/);
    assert.match(await toolError('get_reviews_since', {}), /argument "date": is required\. Fix these/);
    // JSON has no int type: 4.5 is a JSON number, only not a whole one, as the message says.
    assert.match(await toolError('search_reviews', { rating: 4.5 }), /argument "rating": must be a whole number from 1 to 5\. Fix these/);
    // No argument of any tool answers in zod's words, for a value of a type none takes or when left out.
    const zodWords = /Invalid input|Invalid option|Invalid ISO|Too big|Too small|expected|received|JSON int/;
    for (const tool of TOOLS) {
      for (const [name, schema] of Object.entries(tool.input.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>)) {
        const wrong = await toolError(tool.name, { [name]: { nested: true } });
        assert.match(wrong, new RegExp(`argument "${name}": must `), `${tool.name}.${name}: ${wrong}`);
        assert.doesNotMatch(wrong, zodWords, `${tool.name}.${name}: ${wrong}`);
        if (schema.safeParse(undefined).success) continue;
        assert.match(await toolError(tool.name, {}), new RegExp(`argument "${name}": is required`), `${tool.name}.${name} left out`);
      }
    }
  });
  it('an unknown method is -32601', async () => {
    const res = await post(svc.url, { jsonrpc: '2.0', id: 9, method: 'frobnicate' }, { 'mcp-session-id': sid });
    assert.equal(res.body!.error!.code, -32601);
  });
  it('an unparseable body is -32700 with HTTP 400', async () => {
    const res = await post(svc.url, '{"jsonrpc": ', { 'mcp-session-id': sid });
    assert.equal(res.status, 400);
    assert.equal(res.body!.error!.code, -32700);
  });
  it('refuses a wrong Content-Type (415), a short Accept (406) and an unsupported MCP-Protocol-Version (400)', async () => {
    const type = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'content-type': 'text/plain', accept: ACCEPT }, body: JSON.stringify(INIT) });
    assert.equal(type.status, 415);
    assert.equal((await post(svc.url, INIT, { accept: 'application/json' })).status, 406);
    const version = await post(svc.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' });
    assert.equal(version.status, 400);
  });
  it('answers notifications with 202 and no body', async () => {
    const res = await post(svc.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sid });
    assert.equal(res.status, 202);
    assert.equal(res.body, null);
    assert.equal(res.headers.get('content-type'), null, 'no body, so no media type');
  });
  it('GET /mcp needs a session (400, 404) and Accept: text/event-stream (406); then opens one stream per session (409 for a second)', async () => {
    assert.equal((await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream' } })).status, 400);
    assert.equal((await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'made-up' } })).status, 404);
    const mine = await initialize(svc.url);
    assert.equal((await fetch(`${svc.url}/mcp`, { headers: { accept: 'application/json', 'mcp-session-id': mine } })).status, 406);
    assert.equal((await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': mine, 'mcp-protocol-version': '1999-01-01' } })).status, 400);
    const stream = await openStream(svc.url, mine);
    try {
      assert.equal(stream.response.headers.get('content-type'), 'text/event-stream');
      assert.equal((await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': mine } })).status, 409);
    } finally {
      stream.close();
    }
  });
  it('ignores an Authorization header', async () => {
    const res = await post(svc.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sid, authorization: 'Bearer nonsense' });
    assert.equal(res.status, 200);
  });
});

describe('MCP: sessions', () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  it('a request without Mcp-Session-Id is 400; an unknown or forged one 404', async () => {
    assert.equal((await post(svc.url, list)).status, 400);
    assert.equal((await post(svc.url, list, { 'mcp-session-id': 'made-up' })).status, 404);
    const [id, exp] = sid.split('.');
    assert.equal((await post(svc.url, list, { 'mcp-session-id': `${id}.${Number(exp) + 1000}.${sid.split('.')[2]}` })).status, 404, 'a changed expiry breaks the signature');
  });
  it('DELETE ends a session; it is 404 afterwards, and a second DELETE is 404', async () => {
    const mine = await initialize(svc.url);
    const del = await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': mine } });
    assert.equal(del.status, 204);
    assert.equal((await post(svc.url, list, { 'mcp-session-id': mine })).status, 404);
    assert.equal((await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': mine } })).status, 404);
    assert.equal((await fetch(`${svc.url}/mcp`, { method: 'DELETE' })).status, 400);
  });
  it('an idle session expires', async () => {
    const short = await startTestService({ business: BUSINESS, reviews: REVIEWS, mcp: { sessionIdleSeconds: 1 } });
    try {
      const mine = await initialize(short.url);
      assert.equal((await post(short.url, list, { 'mcp-session-id': mine })).status, 200);
      await new Promise((r) => setTimeout(r, 1300));
      const res = await post(short.url, list, { 'mcp-session-id': mine });
      assert.equal(res.status, 404);
      assert.match(res.body!.error!.message, /inactivity/);
    } finally {
      await short.close();
    }
  });
  it('a session minted by one instance is accepted by another on the same database, and ended everywhere', async () => {
    const database = await freshDatabase();
    const a = await startTestService({ business: BUSINESS, reviews: REVIEWS, database });
    const b = await startTestService({ database });
    try {
      const mine = await initialize(a.url);
      const onB = await post(b.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_business', arguments: {} } }, { 'mcp-session-id': mine });
      assert.equal(onB.status, 200);
      assert.equal(((onB.body!.result as { structuredContent: { business: { name: string } } }).structuredContent.business.name), BUSINESS.name);
      assert.equal((await fetch(`${b.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': mine } })).status, 204);
      assert.equal((await post(a.url, list, { 'mcp-session-id': mine })).status, 404);
    } finally {
      await b.close();
      await a.close();
    }
  });
  it('on loopback, refuses a request whose Host is not a loopback name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${svc.url}/mcp`, { method: 'POST', headers: { host: 'evil.example:80', 'content-type': 'application/json', accept: ACCEPT } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify(INIT));
    });
    assert.equal(status, 403);
  });
  it('forgets sessions past their maximum lifetime', async () => {
    const now = Date.now();
    await svc.store.createMcpSession('old-session-row', now - 10 * 86_400_000);
    await svc.store.createMcpSession('new-session-row', now);
    assert.ok((await svc.store.pruneMcpSessions(now - 86_400_000, 0)) >= 1);
    assert.equal(await svc.store.useMcpSession('old-session-row', now, 1e12, 1e12), 'unknown');
    assert.equal(await svc.store.useMcpSession('new-session-row', now, 1e12, 1e12), 'ok');
  });
  it('refuses a foreign Origin with 403 and admits its own and configured ones', async () => {
    const refused = await post(svc.url, INIT, { origin: 'https://evil.example' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body!.error!.message, 'Forbidden: Origin https://evil.example is not allowed', 'it names what was refused, not the Host that was fine');
    assert.equal((await post(svc.url, list, { origin: 'https://evil.example', 'mcp-session-id': sid })).status, 403);
    assert.equal((await post(svc.url, INIT, { origin: new URL(svc.url).origin })).status, 200);
    assert.equal((await post(svc.url, INIT, { origin: `http://localhost:${new URL(svc.url).port}` })).status, 200, 'another loopback name for the same port');
    assert.equal((await post(svc.url, INIT, { origin: 'http://localhost:1' })).status, 403, 'loopback on another port is another origin');
    // Served on loopback, a Host that is not a loopback name is refused, and named alone.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(INIT);
      const req = request(`${svc.url}/mcp`, { method: 'POST', headers: { host: 'rebind.example:4200', 'content-type': 'application/json', accept: ACCEPT, 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(rebound.status, 403);
    assert.equal((JSON.parse(rebound.body) as { error: { message: string } }).error.message, 'Forbidden: Host rebind.example:4200 is not allowed');
    const configured = await post(svc.url, INIT, { origin: 'https://inspector.example' });
    assert.equal(configured.status, 200);
    assert.equal(configured.headers.get('access-control-allow-origin'), 'https://inspector.example');
  });
  it('answers the preflight of an admitted Origin with it, and of a refused one with no grant, so its browser stops there', async () => {
    const preflight = (origin?: string) =>
      fetch(`${svc.url}/mcp`, {
        method: 'OPTIONS',
        headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id' },
      });
    for (const origin of ['https://inspector.example', new URL(svc.url).origin, `http://localhost:${new URL(svc.url).port}`]) {
      const res = await preflight(origin);
      assert.equal(res.status, 204, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), origin, origin);
      assert.equal(res.headers.get('vary'), 'Origin', origin);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /Mcp-Session-Id/);
      assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    }
    for (const origin of ['https://evil.example', 'http://localhost:1', 'null']) {
      const res = await preflight(origin);
      assert.equal(res.status, 204, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), null, origin);
      assert.equal(res.headers.get('vary'), 'Origin', origin);
    }
    // Without an Origin (no browser sent it) nothing is granted either.
    const bare = await preflight();
    assert.equal(bare.status, 204);
    assert.equal(bare.headers.get('access-control-allow-origin'), null);
    // The datasets' preflight still serves any origin.
    const reviews = await fetch(`${svc.url}/reviews.json`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-headers': 'if-none-match' } });
    assert.equal(reviews.headers.get('access-control-allow-origin'), '*');
  });
  it('grants a refused Origin nothing: no Access-Control-Allow-Origin on its 403, on DELETE and GET, nor on an answer given before the check', async () => {
    const evil = { origin: 'https://evil.example' };
    const answers: [string, Response | Rpc, number][] = [
      ['POST initialize', await post(svc.url, INIT, evil), 403],
      ['POST tools/list', await post(svc.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...evil, 'mcp-session-id': sid }), 403],
      ['DELETE', await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { ...evil, 'mcp-session-id': sid } }), 403],
      ['GET', await fetch(`${svc.url}/mcp`, { headers: { ...evil, accept: 'text/event-stream', 'mcp-session-id': sid } }), 403],
      // Transport checks come first, so these are answered before the Origin is: still not to it.
      ['POST text/plain', await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { ...evil, 'content-type': 'text/plain', accept: ACCEPT }, body: JSON.stringify(INIT) }), 415],
      ['POST without Accept', await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { ...evil, 'content-type': 'application/json' }, body: JSON.stringify(INIT) }), 406],
      ['POST []', await post(svc.url, '[]', evil), 400],
      ['POST on another loopback port', await post(svc.url, INIT, { origin: 'http://localhost:1' }), 403],
    ];
    for (const [what, res, status] of answers) {
      assert.equal(res.status, status, what);
      assert.equal(res.headers.get('access-control-allow-origin'), null, what);
      // The answer depends on Origin, so a cache must not hand it to another.
      assert.equal(res.headers.get('vary'), 'Origin', what);
    }
    // The session the refused requests named is untouched.
    assert.equal((await post(svc.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid })).status, 200);
    // Admitted origins are still granted, on the same answers.
    for (const origin of ['https://inspector.example', new URL(svc.url).origin]) {
      const admitted = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { origin, 'content-type': 'text/plain', accept: ACCEPT }, body: JSON.stringify(INIT) });
      assert.equal(admitted.status, 415);
      assert.equal(admitted.headers.get('access-control-allow-origin'), origin);
    }
    // An Origin that would be admitted is not granted on a request refused for its Host (DNS rebinding).
    const rebound = await new Promise<{ status: number; allowOrigin: string | string[] | undefined }>((resolve, reject) => {
      const body = JSON.stringify(INIT);
      const headers = { host: 'rebind.example:4200', origin: 'https://inspector.example', 'content-type': 'application/json', accept: ACCEPT, 'content-length': Buffer.byteLength(body) };
      const req = request(`${svc.url}/mcp`, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve({ status: res.statusCode!, allowOrigin: res.headers['access-control-allow-origin'] });
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.deepEqual(rebound, { status: 403, allowOrigin: undefined });
  });
});

describe('MCP: resources and a real client', () => {
  it('the SDK Client over StreamableHTTPClientTransport lists and calls tools and reads resources', async () => {
    const client = new Client({ name: 'reviewcast-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`));
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId);
      assert.match(client.getInstructions()!, /get_summary/);
      const tools = await client.listTools();
      assert.equal(tools.tools.length, 11);
      const res = await client.callTool({ name: 'search_reviews', arguments: { rating: 5, limit: 2 } });
      assert.deepEqual((res.structuredContent as { matched: number; returned: number }).matched, 3);
      const resources = await client.listResources();
      assert.deepEqual(resources.resources.map((r) => r.uri), [`${svc.url}/reviews.json`, `${svc.url}/insights.json`]);
      const dataset = await client.readResource({ uri: `${svc.url}/reviews.json` });
      assert.equal((JSON.parse((dataset.contents[0] as { text: string }).text) as { reviews: unknown[] }).reviews.length, 8);
      const templates = await client.listResourceTemplates();
      assert.equal(templates.resourceTemplates[0]!.uriTemplate, 'review://{id}');
      const one = await client.readResource({ uri: `review://${REVIEWS[0]!.id}` });
      assert.equal((JSON.parse((one.contents[0] as { text: string }).text) as { review: { id: string } }).review.id, REVIEWS[0]!.id);
      await assert.rejects(client.readResource({ uri: 'review://nope' }), /Unknown resource/);
      await client.setLoggingLevel('warning');
      await client.ping();
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});

/** One JSON-RPC request within a session; the answer's body. */
async function rpc(url: string, session: string, method: string, params: Record<string, unknown> = {}): Promise<NonNullable<Rpc['body']>> {
  const res = await post(url, { jsonrpc: '2.0', id: n++, method, params }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body!;
}

describe('MCP: protocol versions', () => {
  for (const version of ['2025-06-18', '2025-11-25']) {
    it(`speaks ${version}: initialize agrees on it, and requests carrying it are answered`, async () => {
      const res = await post(svc.url, { ...INIT, params: { ...INIT.params, protocolVersion: version } });
      assert.equal((res.body!.result as { protocolVersion: string }).protocolVersion, version);
      const mine = res.headers.get('mcp-session-id')!;
      for (const method of ['tools/list', 'prompts/list', 'resources/list']) {
        const answer = await post(svc.url, { jsonrpc: '2.0', id: 1, method }, { 'mcp-session-id': mine, 'mcp-protocol-version': version });
        assert.equal(answer.status, 200, method);
        assert.ok(answer.body!.result, method);
      }
    });
  }
});

describe('MCP: prompts', () => {
  type Prompt = { name: string; title: string; description: string; arguments: { name: string; description: string; required: boolean }[] };
  type Message = { role: string; content: { type: string; text?: string; resource?: { uri: string; text: string } } };
  const get = async (name: string, args: Record<string, string>) => rpc(svc.url, sid, 'prompts/get', { name, arguments: args });
  const text = (messages: Message[]) => messages.map((m) => m.content.text ?? m.content.resource?.text ?? '').join('\n');

  it('lists the four prompts, each described, with typed arguments', async () => {
    const prompts = ((await rpc(svc.url, sid, 'prompts/list')).result as { prompts: Prompt[] }).prompts;
    assert.deepEqual(prompts.map((p) => p.name), ['summarise_aspect', 'compare_technicians', 'changes_since', 'draft_reply']);
    for (const p of prompts) {
      assert.ok(p.title && p.description.length > 40, p.name);
      for (const a of p.arguments) assert.ok(a.description, `${p.name}.${a.name}`);
    }
    const args = Object.fromEntries(prompts.map((p) => [p.name, p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`)]));
    assert.deepEqual(args, { summarise_aspect: ['aspect'], compare_technicians: ['technicians?'], changes_since: ['date'], draft_reply: ['id', 'tone?'] });
  });
  it('summarise_aspect gives the figures and quotes with their permalinks', async () => {
    const out = (await get('summarise_aspect', { aspect: 'Punctuality' })).result as { messages: Message[] };
    const all = text(out.messages);
    assert.match(all, /about punctuality/);
    assert.match(all, /"negative_count":1/);
    assert.match(all, new RegExp(`${svc.url}/reviews/[0-9A-Z]{26}`));
  });
  it('compare_technicians compares all, or those named', async () => {
    const all = text(((await get('compare_technicians', {})).result as { messages: Message[] }).messages);
    assert.match(all, /"name":"Al"/);
    const one = text(((await get('compare_technicians', { technicians: 'alberto' })).result as { messages: Message[] }).messages);
    assert.match(one, /Compare Al of/);
  });
  it('changes_since counts the reviews since the date', async () => {
    const all = text(((await get('changes_since', { date: '2026-04-01' })).result as { messages: Message[] }).messages);
    assert.match(all, /"new_reviews":3/);
    assert.match(all, /get_reviews_since/);
  });
  it('draft_reply embeds the review as review://{id} and asks for a draft in the tone given', async () => {
    const review = REVIEWS[3]!;
    const out = (await get('draft_reply', { id: review.id, tone: 'formal' })).result as { messages: Message[] };
    assert.equal(out.messages[0]!.content.type, 'resource');
    assert.equal(out.messages[0]!.content.resource!.uri, `review://${review.id}`);
    assert.equal((JSON.parse(out.messages[0]!.content.resource!.text) as { review: { url: string } }).review.url, `${svc.url}/reviews/${review.id}`);
    assert.match(out.messages[1]!.content.text!, /formal tone/);
    assert.match(out.messages[1]!.content.text!, /read-only/);
  });
  it('bad arguments are -32602 naming what is wrong', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['draft_reply', { id: 'nope' }, /id/],
      ['draft_reply', { id: '01ZZZZZZZZZZZZZZZZZZZZZZZZ' }, /No review has id/],
      ['draft_reply', { id: REVIEWS[0]!.id, tone: 'angry' }, /tone/],
      ['summarise_aspect', {}, /aspect/],
      ['summarise_aspect', { aspect: 'vibes' }, /Valid aspects: punctuality/],
      ['compare_technicians', { technicians: 'Al, Zed' }, /"Zed"/],
      ['changes_since', { date: '2026-02-30' }, /date/],
      ['no_such_prompt', {}, /no_such_prompt/],
    ];
    for (const [name, args, message] of cases) {
      const body = await get(name, args);
      assert.equal(body.error?.code, -32602, `${name} ${JSON.stringify(args)}`);
      assert.match(body.error!.message, message, `${name} ${JSON.stringify(args)}`);
    }
  });
  it('a wrong argument is named with the one message of its schema, not zod\'s words; a missing one is required', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['changes_since', { date: '2026-02-30' }, 'Invalid arguments for prompt changes_since: argument "date": must be a real date written YYYY-MM-DD, e.g. 2026-03-14'],
      ['draft_reply', { id: REVIEWS[0]!.id, tone: 'angry' }, 'Invalid arguments for prompt draft_reply: argument "tone": must be warm, formal or brief'],
      ['draft_reply', { id: 'nope' }, 'Invalid arguments for prompt draft_reply: argument "id": must be a ULID (26 characters, Crockford base32)'],
      ['draft_reply', {}, 'Invalid arguments for prompt draft_reply: argument "id": is required'],
      ['summarise_aspect', {}, 'Invalid arguments for prompt summarise_aspect: argument "aspect": is required'],
      ['summarise_aspect', { aspect: '   ' }, 'Invalid arguments for prompt summarise_aspect: argument "aspect": must be an aspect id or label of 1 to 100 characters, e.g. "punctuality"'],
      ['compare_technicians', { technicians: 'x'.repeat(501) }, 'Invalid arguments for prompt compare_technicians: argument "technicians": must be technician names or aliases separated by commas, at most 500 characters in all'],
    ];
    for (const [name, args, message] of cases) {
      const body = await get(name, args);
      assert.equal(body.error?.code, -32602, `${name} ${JSON.stringify(args)}`);
      assert.equal(body.error!.message, message);
    }
  });
});

describe('MCP: completions', () => {
  const complete = async (ref: Record<string, string>, name: string, value: string) =>
    ((await rpc(svc.url, sid, 'completion/complete', { ref, argument: { name, value } })).result as { completion: { values: string[]; hasMore: boolean } }).completion;
  const prompt = (name: string) => ({ type: 'ref/prompt', name });

  it('completes prompt arguments from the data', async () => {
    assert.deepEqual((await complete(prompt('summarise_aspect'), 'aspect', 'PUNCT')).values, ['punctuality']);
    assert.deepEqual((await complete(prompt('summarise_aspect'), 'aspect', 'value')).values, ['pricing'], 'by label too');
    assert.ok((await complete(prompt('compare_technicians'), 'technicians', 'alb')).values.includes('Al'), 'by alias');
    const rest = (await complete(prompt('compare_technicians'), 'technicians', 'Al, ')).values;
    assert.ok(rest.length > 0 && rest.every((v) => v.startsWith('Al, ') && v !== 'Al, Al'), rest.join('|'));
    assert.deepEqual((await complete(prompt('compare_technicians'), 'technicians', 'alberto, ')).values, rest.map((v) => v.replace('Al, ', 'alberto, ')), 'a technician named by alias is not offered again');
    assert.deepEqual((await complete(prompt('changes_since'), 'date', '2026-0')).values, ['2026-05-01', '2026-04-01', '2026-03-01', '2026-02-01', '2026-01-01']);
    const id = REVIEWS[2]!.id;
    assert.ok((await complete(prompt('draft_reply'), 'id', id.slice(0, 20).toLowerCase())).values.includes(id));
    assert.deepEqual((await complete(prompt('draft_reply'), 'tone', 'f')).values, ['formal']);
  });
  it('completes the id of review://{id}', async () => {
    const ids = (await complete({ type: 'ref/resource', uri: 'review://{id}' }, 'id', '')).values;
    assert.deepEqual([...ids].sort(), REVIEWS.map((r) => r.id).sort());
    assert.deepEqual((await complete({ type: 'ref/resource', uri: 'review://{id}' }, 'id', REVIEWS[5]!.id)).values, [REVIEWS[5]!.id]);
  });
  it('answers an empty list for a reference or argument it does not know', async () => {
    for (const [ref, name] of [[prompt('test_prompt_with_arguments'), 'arg1'], [prompt('draft_reply'), 'colour'], [{ type: 'ref/resource', uri: 'test://{x}' }, 'x'], [prompt('__proto__'), 'constructor']] as const) {
      assert.deepEqual(await complete(ref, name, 'a'), { values: [], hasMore: false }, JSON.stringify(ref));
    }
  });
  it('the SDK client lists prompts, gets one and completes an argument', async () => {
    const client = new Client({ name: 'reviewcast-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`));
    await client.connect(transport);
    try {
      assert.equal((await client.listPrompts()).prompts.length, 4);
      const got = await client.getPrompt({ name: 'changes_since', arguments: { date: '2026-01-01' } });
      assert.match((got.messages[0]!.content as { text: string }).text, /"new_reviews":8/);
      const done = await client.complete({ ref: { type: 'ref/prompt', name: 'summarise_aspect' }, argument: { name: 'aspect', value: 'clean' } });
      assert.deepEqual(done.completion.values, ['cleanliness']);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});

describe('MCP: subscriptions', () => {
  const changed = (r: (typeof REVIEWS)[number]) => ({ ...r, text: `${r.text ?? ''} Edited later.` });

  it('a subscribed resource that changes with an import gets notifications/resources/updated on the stream, and a new review list_changed', async () => {
    const own = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 6) });
    try {
      const mine = await initialize(own.url);
      const stream = await openStream(own.url, mine);
      try {
        const watched = [`${own.url}/reviews.json`, `${own.url}/insights.json`, `review://${REVIEWS[0]!.id}`];
        for (const uri of [...watched, `review://${REVIEWS[1]!.id}`, `review://${REVIEWS[2]!.id}`]) assert.deepEqual((await rpc(own.url, mine, 'resources/subscribe', { uri })).result, {});
        assert.deepEqual((await rpc(own.url, mine, 'resources/unsubscribe', { uri: `review://${REVIEWS[1]!.id}` })).result, {});
        const unknown = await rpc(own.url, mine, 'resources/subscribe', { uri: 'test://watched-resource' });
        assert.equal(unknown.error?.code, -32602);

        await own.store.importReviews({ reviews: [changed(REVIEWS[0]!), changed(REVIEWS[1]!), REVIEWS[6]!], replace: false, dryRun: false });
        await own.server.live.refresh();
        assert.ok(await eventually(async () => stream.messages.length >= watched.length + 1, 5000), JSON.stringify(stream.messages));
        const updated = stream.messages.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params!.uri);
        assert.deepEqual(updated.sort(), [...watched].sort(), 'the unsubscribed review and the unchanged one are not announced');
        assert.equal(stream.messages.filter((m) => m.method === 'notifications/resources/list_changed').length, 1);
      } finally {
        stream.close();
      }
    } finally {
      await own.close();
    }
  });
  it('a replica hears of an import made on another replica sharing the store, and notifies its own client', async () => {
    const database = await freshDatabase();
    const a = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 6), database });
    const b = await startTestService({ database });
    try {
      const mine = await initialize(b.url);
      const stream = await openStream(b.url, mine);
      try {
        await rpc(b.url, mine, 'resources/subscribe', { uri: `${b.url}/reviews.json` });
        await a.store.importReviews({ reviews: [REVIEWS[7]!], replace: false, dryRun: false });
        await a.server.live.refresh();
        assert.ok(await eventually(async () => stream.messages.some((m) => m.method === 'notifications/resources/updated'), 10_000), 'B announced the change A imported');
        assert.deepEqual(stream.messages.find((m) => m.method === 'notifications/resources/updated')!.params, { uri: `${b.url}/reviews.json` });
        assert.ok(stream.messages.some((m) => m.method === 'notifications/resources/list_changed'));
      } finally {
        stream.close();
      }
    } finally {
      await b.close();
      await a.close();
    }
  });
  it('the SDK client subscribes and hears notifications/resources/updated on the stream it opens itself', async () => {
    const own = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 4) });
    const client = new Client({ name: 'reviewcast-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${own.url}/mcp`));
    try {
      const heard: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
        heard.push(note.params.uri);
      });
      await client.connect(transport);
      await client.subscribeResource({ uri: `${own.url}/reviews.json` });
      // The client opens its GET stream on its own after initialize; an import made before it is open is not heard, so each round imports again.
      for (let i = 4; i < REVIEWS.length && heard.length === 0; i++) {
        await own.store.importReviews({ reviews: [REVIEWS[i]!], replace: false, dryRun: false });
        await own.server.live.refresh();
        await eventually(async () => heard.length > 0, 2000);
      }
      assert.equal(heard[0], `${own.url}/reviews.json`);
      await client.unsubscribeResource({ uri: `${own.url}/reviews.json` });
    } finally {
      await transport.terminateSession();
      await client.close();
      await own.close();
    }
  });
  it('DELETE ends the session\'s stream', async () => {
    const mine = await initialize(svc.url);
    const stream = await openStream(svc.url, mine);
    assert.equal(stream.ended, false);
    assert.equal((await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': mine } })).status, 204);
    assert.ok(await eventually(async () => stream.ended, 5000), 'the stream ended');
    // With the session gone, a new stream for it is refused.
    assert.equal((await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': mine } })).status, 404);
    stream.close();
  });
});

describe('MCP: paging and caps', () => {
  const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const ulid = (i: number) => `01J${'0'.repeat(13)}${Array.from({ length: 10 }, (_, k) => CROCKFORD[Math.floor(i / 32 ** (9 - k)) % 32]).join('')}`;
  // 250 reviews of about 3 KB each: 100 of them would be 300 KB, past the cap.
  const MANY = Array.from({ length: 250 }, (_, i) => ({
    ...REVIEWS[0]!,
    id: ulid(i + 1),
    author: `Customer ${i}`,
    date: `2026-0${1 + (i % 5)}-${String(1 + (i % 28)).padStart(2, '0')}`,
    text: `Visit ${i}. ${'The technician was careful and explained everything before starting. '.repeat(45)}`,
    source_id: null,
  }));
  let big: TestService;
  let mine: string;
  before(async () => {
    big = await startTestService({ business: BUSINESS, reviews: MANY });
    mine = await initialize(big.url);
  });
  after(() => big.close());
  type Page = { count?: number; returned?: number; matched: number; reviews: { id: string; url: string; text: string; text_shortened?: true }[]; next_cursor: string | null };
  const tool = async (name: string, args: Record<string, unknown>) => {
    const body = await rpc(big.url, mine, 'tools/call', { name, arguments: args });
    const result = body.result as { isError?: boolean; structuredContent: Page; content: { text: string }[] };
    return { result, bytes: Buffer.byteLength(result.content[0]!.text) };
  };

  for (const name of ['get_reviews_since', 'search_reviews']) {
    it(`${name} pages to the end of a large result, each page within the size cap`, async () => {
      const args = name === 'get_reviews_since' ? { date: '2026-01-01', limit: 100 } : { since: '2026-01-01', limit: 100 };
      const seen: string[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const { result, bytes } = await tool(name, { ...args, ...(cursor ? { cursor } : {}) });
        assert.ok(!result.isError, result.content[0]!.text);
        const page = result.structuredContent;
        assert.equal(page.matched, MANY.length);
        assert.ok(bytes <= TOOL_ANSWER_MAX_BYTES + 1024, `page of ${bytes} bytes`);
        assert.ok(page.reviews.length < 100, 'the cap, not the limit, ended each page');
        for (const r of page.reviews) assert.equal(r.url, `${big.url}/reviews/${r.id}`);
        seen.push(...page.reviews.map((r) => r.id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor);
      assert.equal(seen.length, MANY.length);
      assert.equal(new Set(seen).size, MANY.length, 'no review twice');
      assert.ok(pages >= 3);
    });
  }
  it('short_texts cuts long texts (marked text_shortened) so the whole limit fits; get_review has the whole text', async () => {
    const { result } = await tool('get_reviews_since', { date: '2026-01-01', limit: 100, short_texts: true });
    const page = result.structuredContent;
    assert.equal(page.count, 100);
    for (const r of page.reviews) {
      assert.equal(r.text_shortened, true);
      assert.ok(r.text.length <= 402 && r.text.endsWith(' …'), r.text);
    }
    const whole = await tool('get_review', { id: page.reviews[0]!.id });
    const full = (whole.result.structuredContent as unknown as { review: { text: string } }).review.text;
    assert.ok(full.startsWith(page.reviews[0]!.text.slice(0, -2)) && full.length > 3000);
  });
  it('a cursor from another date, or garbled, is an isError result saying to start again', async () => {
    const first = (await tool('get_reviews_since', { date: '2026-01-01', limit: 5 })).result.structuredContent;
    for (const args of [{ date: '2026-02-01', cursor: first.next_cursor }, { date: '2026-01-01', cursor: 'garbled' }]) {
      const { result } = await tool('get_reviews_since', args);
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text, /Invalid cursor: .*start again/);
    }
  });
  it('each cursor argument is described as MCP refuses it: an isError result, the caller starting again itself, not the HTTP 400', async () => {
    const tools = ((await rpc(big.url, mine, 'tools/list')).result as { tools: { name: string; inputSchema: { properties: Record<string, { description?: string }> } }[] }).tools;
    for (const name of ['search_reviews', 'get_reviews_since']) {
      const description = tools.find((t) => t.name === name)!.inputSchema.properties.cursor!.description!;
      assert.match(description, /isError result/, name);
      assert.match(description, /call again without cursor/, name);
      assert.doesNotMatch(description, /400|starts again/, name);
    }
  });
  it(`a session holds at most ${MAX_SUBSCRIPTIONS} subscriptions`, async () => {
    const session = await initialize(big.url);
    for (const r of MANY.slice(0, MAX_SUBSCRIPTIONS)) assert.deepEqual((await rpc(big.url, session, 'resources/subscribe', { uri: `review://${r.id}` })).result, {});
    const over = await rpc(big.url, session, 'resources/subscribe', { uri: `review://${MANY[MAX_SUBSCRIPTIONS]!.id}` });
    assert.match(over.error!.message, /at most|at once/);
    await rpc(big.url, session, 'resources/unsubscribe', { uri: `review://${MANY[0]!.id}` });
    assert.deepEqual((await rpc(big.url, session, 'resources/subscribe', { uri: `review://${MANY[MAX_SUBSCRIPTIONS]!.id}` })).result, {}, 'room again after an unsubscribe');
  });
  it('the limit and the cap are in the schema and the description', async () => {
    const tools = ((await rpc(big.url, mine, 'tools/list')).result as { tools: { name: string; description: string; inputSchema: { properties: Record<string, { maximum?: number; description: string }> } }[] }).tools;
    for (const name of ['get_reviews_since', 'search_reviews']) {
      const t = tools.find((x) => x.name === name)!;
      assert.equal(t.inputSchema.properties.limit!.maximum, 100);
      assert.match(t.inputSchema.properties.limit!.description, /256 KB/);
      assert.match(t.description, /256 KB/);
      assert.ok(t.inputSchema.properties.cursor && t.inputSchema.properties.short_texts, name);
    }
  });
});
