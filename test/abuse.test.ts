// Issue 15, memory and CPU: one anonymous client flooding /api/reviews/since and MCP with large answers, at 20,000 reviews.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { benchReviews } from '../bench/lib/dataset.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { eventually, startTestService, type TestService } from './helpers.js';

const REVIEW_COUNT = 20_000;
const MB = 1024 * 1024;
/** The answers' budget the flood runs against (CACHE_ANSWER_MB). */
const ANSWER_BUDGET = 32 * MB;
/**
 * What RSS may grow by beyond that budget: the documents built on first use (reviews.json
 * compressed, its MCP escape), answers in flight, allocator slack. Before the byte budget one
 * old date pinned about 7.5 MB at this size, so 1,000 of them would have grown RSS by gigabytes.
 */
const MARGIN = 128 * MB;
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** A date before every review: the whole dataset is its answer, a different body for each. */
const oldDate = (i: number) => new Date(Date.UTC(1900, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

/** Requests `path` and reads the body through without keeping it (the server shares this process, so its RSS is the one measured). */
async function drain(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; bytes: number; headers: Headers }> {
  const res = await fetch(url, { headers, method });
  let bytes = 0;
  for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).length;
  return { status: res.status, bytes, headers: res.headers };
}

async function mcp(url: string, sid: string | null, id: number, method: string, params: Record<string, unknown>, client = '198.51.100.1') {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'x-forwarded-for': client, ...(sid ? { 'mcp-session-id': sid } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return { status: res.status, sid: res.headers.get('mcp-session-id'), text: await res.text() };
}

async function session(url: string, client?: string): Promise<string> {
  const init = await mcp(url, null, 0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } }, client);
  assert.equal(init.status, 200);
  return init.sid!;
}

/**
 * RSS once garbage is gone. V8 hands the pages a collection freed back to the system from a
 * background thread a little later, so RSS read right after gc() still holds whatever the last
 * large answers (15 MB strings on this client side) occupied: it read 300+ MiB high or not by
 * chance. Collecting again after the loop has turned, until RSS stops falling, measures what is held.
 */
async function rssAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  let rss = Infinity;
  for (let i = 0; i < 10; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
    const now = process.memoryUsage().rss;
    if (now >= rss - MB) return Math.min(rss, now);
    rss = now;
  }
  return rss;
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  assert.ok(m, `${name} is in /metrics`);
  return Number(m[1]);
}

describe(`a flood of large answers at ${REVIEW_COUNT.toLocaleString('en')} reviews`, () => {
  let svc: TestService;
  before(async () => {
    assert.ok((globalThis as { gc?: unknown }).gc, 'run with --expose-gc (npm test does)');
    svc = await startTestService({ business: DEMO_BUSINESS, reviews: benchReviews(REVIEW_COUNT), trustProxy: true, cost: { answerCacheBytes: ANSWER_BUDGET } });
  });
  after(() => svc.close());

  it('reviews.json is the dataset serialised whole, and a since answer is exactly its newest part', async () => {
    const datasetText = await (await fetch(`${svc.url}/reviews.json`)).text();
    const dataset = JSON.parse(datasetText) as { reviews: { date: string }[] };
    assert.equal(datasetText, JSON.stringify(dataset));
    assert.equal(dataset.reviews.length, REVIEW_COUNT);
    const mid = dataset.reviews[Math.floor(REVIEW_COUNT / 3)]!.date;
    for (const date of [oldDate(0), mid, '2999-01-01']) {
      const reviews = dataset.reviews.filter((r) => r.date >= date);
      const res = await fetch(`${svc.url}/api/reviews/since/${date}`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), JSON.stringify({ since: date, count: reviews.length, reviews }), date);
    }
  });

  it('a since answer compressed off the event loop decodes to the same body, and its ETag gets 304 without waiting for compression', async () => {
    const url = `${svc.url}/api/reviews/since/${oldDate(5000)}`;
    const plain = Buffer.from(await (await fetch(url)).arrayBuffer());
    // fetch would decode it; node:http hands over the bytes as sent.
    const raw = await new Promise<{ etag: string; body: Buffer; coding: string }>((resolve, reject) => {
      get(url, { headers: { 'accept-encoding': 'br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ etag: String(res.headers.etag), body: Buffer.concat(chunks), coding: String(res.headers['content-encoding']) }));
      }).on('error', reject);
    });
    assert.equal(raw.coding, 'br');
    assert.ok(brotliDecompressSync(raw.body).equals(plain));
    const revalidated = await fetch(url, { headers: { 'accept-encoding': 'br', 'if-none-match': raw.etag } });
    assert.equal(revalidated.status, 304);
  });

  it('1,000 distinct old dates and 200 large MCP calls from one client keep RSS within the answers budget plus a fixed margin', async (t) => {
    const sid = await session(svc.url);
    // The documents every answer is cut from, built once: what the flood adds is then answers only.
    assert.equal((await drain(`${svc.url}/api/reviews/since/1800-01-01`)).status, 200);
    const warm = await mcp(svc.url, sid, 1, 'resources/read', { uri: `${svc.url}/reviews.json` });
    assert.equal(warm.status, 200);
    const base = await rssAfterGc();
    let peak = base;
    let answered = 0;
    for (let i = 0; i < 1000; i++) {
      // HEAD builds and keeps the same answer as GET without 12 MB crossing loopback each time; one in ten is a GET, half of those gzipped.
      const coding = i % 20 === 0 ? 'gzip' : 'identity';
      const res = await drain(`${svc.url}/api/reviews/since/${oldDate(i)}`, { 'x-forwarded-for': '198.51.100.1', 'accept-encoding': coding }, i % 10 === 0 ? 'GET' : 'HEAD');
      if (res.status === 200) answered++;
      if (i % 100 === 99) peak = Math.max(peak, await rssAfterGc());
    }
    assert.equal(answered, 1000, 'every date was answered: the budget, not a refusal, held memory down');
    for (let i = 0; i < 200; i++) {
      const res =
        i % 2
          ? await mcp(svc.url, sid, 10 + i, 'resources/read', { uri: `${svc.url}/reviews.json` })
          : await mcp(svc.url, sid, 10 + i, 'tools/call', { name: 'get_reviews_since', arguments: { date: oldDate(i), limit: 100 } });
      assert.equal(res.status, 200);
      assert.ok(!res.text.includes('"isError":true'), res.text.slice(0, 300));
      if (i % 50 === 49) peak = Math.max(peak, await rssAfterGc());
    }
    const grew = peak - base;
    t.diagnostic(`RSS ${Math.round(base / MB)} MiB after warm-up, peak ${Math.round(peak / MB)} MiB after a GC during the flood`);
    assert.ok(grew < ANSWER_BUDGET + MARGIN, `RSS grew by ${Math.round(grew / MB)} MiB; allowed ${(ANSWER_BUDGET + MARGIN) / MB} MiB`);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.ok(metric(metrics, 'reviewcast_cache_bytes{cache="answers"}') <= ANSWER_BUDGET);
    assert.equal(metric(metrics, 'reviewcast_cache_max_bytes{cache="answers"}'), ANSWER_BUDGET);
    assert.ok(metric(metrics, 'reviewcast_cache_bytes{cache="documents"}') > 0, 'the documents stayed: answers can not evict them');
    assert.ok(metric(metrics, 'reviewcast_nodejs_eventloop_lag_p99_seconds') >= 0);
  });

  it('MCP get_reviews_since returns at most limit reviews (20 by default, 100 at most) and how many matched', async () => {
    const sid = await session(svc.url);
    const call = async (args: Record<string, unknown>) => JSON.parse((await mcp(svc.url, sid, 1, 'tools/call', { name: 'get_reviews_since', arguments: args })).text) as { result: { isError?: boolean; structuredContent: { count: number; matched: number; reviews: unknown[] }; content: { text: string }[] } };
    const byDefault = (await call({ date: oldDate(0) })).result.structuredContent;
    assert.deepEqual([byDefault.count, byDefault.matched, byDefault.reviews.length], [20, REVIEW_COUNT, 20]);
    const most = (await call({ date: oldDate(0), limit: 100 })).result.structuredContent;
    assert.deepEqual([most.count, most.matched], [100, REVIEW_COUNT]);
    const over = (await call({ date: oldDate(0), limit: 101 })).result;
    assert.equal(over.isError, true);
    assert.match(over.content[0]!.text, /argument "limit"/);
    const list = JSON.parse((await mcp(svc.url, sid, 2, 'tools/list', {})).text) as { result: { tools: { name: string; description: string; inputSchema: { properties: { limit: { maximum: number; default: number } } } }[] } };
    const tool = list.result.tools.find((t) => t.name === 'get_reviews_since')!;
    assert.deepEqual([tool.inputSchema.properties.limit.maximum, tool.inputSchema.properties.limit.default], [100, 20]);
    assert.match(tool.description, /default 20, at most 100/);
  });

  it('MCP resources/read gives the documents exactly as served over HTTP', async () => {
    const sid = await session(svc.url);
    for (const path of ['/reviews.json', '/insights.json']) {
      const served = await (await fetch(`${svc.url}${path}`)).text();
      const read = JSON.parse((await mcp(svc.url, sid, 3, 'resources/read', { uri: `${svc.url}${path}` })).text) as { id: number; result: { contents: { uri: string; text: string }[] } };
      assert.equal(read.id, 3);
      assert.equal(read.result.contents[0]!.uri, `${svc.url}${path}`);
      assert.equal(read.result.contents[0]!.text, served, path);
    }
  });

  describe('the cost-weighted limit, shared by replicas', () => {
    const BUDGET_KB = 20_000;
    let replicaA: TestService;
    let replicaB: TestService;
    before(async () => {
      // Two more servers on the same database: replicas sharing the counters in the store.
      replicaA = await startTestService({ database: svc.database, trustProxy: true, cost: { rateLimitCostKb: BUDGET_KB } });
      replicaB = await startTestService({ database: svc.database, trustProxy: true, cost: { rateLimitCostKb: BUDGET_KB } });
    });
    after(async () => {
      await replicaA.close();
      await replicaB.close();
    });

    it('a client asking for large answers is refused with 429 once over its kilobytes, on every replica, while others are served', async () => {
      const client = { 'x-forwarded-for': '203.0.113.7' };
      // Each answer is the whole dataset (about 12 MB here): the second takes the client past 20,000 KB.
      let served = 0;
      let refused: Response | null = null;
      for (let i = 0; i < 5 && !refused; i++) {
        const res = await fetch(`${replicaA.url}/api/reviews/since/${oldDate(i)}`, { headers: client });
        if (res.status === 429) refused = res;
        else {
          assert.equal(res.status, 200);
          await res.arrayBuffer();
          served++;
          // The cost is written to the store as the answer finishes: wait for the refusal rather than race the write.
          if (served >= 2) await eventually(async () => (await fetch(`${replicaA.url}/healthz`, { headers: client })).status === 429, 5000);
        }
      }
      assert.ok(refused, 'refused within five requests');
      assert.equal(served, 2);
      assert.equal(refused.status, 429);
      const body = (await refused.json()) as { error: string; message: string };
      assert.equal(body.error, 'too_many_requests');
      assert.match(body.message, /20,000 KB of answers in a minute/);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal((await fetch(`${replicaA.url}/healthz`, { headers: client })).status, 429, 'a refused client is refused everything, cheaply');
      assert.equal((await fetch(`${replicaA.url}/healthz`, { headers: { 'x-forwarded-for': '203.0.113.8' } })).status, 200, 'another client is served');
      // The other replica reads the same counter: at most one more answer there before it refuses too.
      const first = await fetch(`${replicaB.url}/api/reviews/since/${oldDate(10)}`, { headers: client });
      await first.arrayBuffer();
      assert.ok(
        await eventually(async () => (await fetch(`${replicaB.url}/healthz`, { headers: client })).status === 429, 5000),
        'the second replica refuses the client after at most one answer',
      );
      const metrics = await (await fetch(`${replicaA.url}/metrics`)).text();
      assert.ok(metric(metrics, 'reviewcast_http_cost_limited_total') >= 2);
    });

    it('small answers count by their size: hundreds of 304s and health checks stay far under the budget', async () => {
      const client = { 'x-forwarded-for': '203.0.113.9' };
      const feed = await fetch(`${replicaA.url}/feed.xml`, { headers: client });
      const etag = feed.headers.get('etag')!;
      await feed.arrayBuffer();
      for (let i = 0; i < 300; i++) {
        const res = await fetch(`${replicaA.url}/feed.xml`, { headers: { ...client, 'if-none-match': etag } });
        assert.equal(res.status, 304);
      }
      assert.equal((await fetch(`${replicaA.url}/healthz`, { headers: client })).status, 200);
    });
  });
});
