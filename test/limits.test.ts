import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { benchReviews } from '../bench/lib/dataset.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { eventually, freshDatabase, openTestStore, startServeProcess, startTestService, type TestService } from './helpers.js';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Writes raw bytes on a fresh connection; resolves with what came back once the server closed it. */
function rawExchange(port: number, chunks: string[], gapMs = 0): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - t0 }));
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (socket.destroyed) return;
        socket.write(c);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

describe('limits on requests', () => {
  let svc: TestService;
  let port: number;
  before(async () => {
    svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, http: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
    port = Number(new URL(svc.url).port);
  });
  after(() => svc.close());

  it('a request target over 8,192 bytes gets 414 with the JSON error body', async () => {
    const res = await fetch(`${svc.url}/api/reviews/search?query=${'a'.repeat(8200)}`);
    assert.equal(res.status, 414);
    const body = (await res.json()) as { error: string };
    assert.equal(body.error, 'uri_too_long');
  });

  it('request headers over 16 KB get 431', async () => {
    const res = await fetch(`${svc.url}/healthz`, { headers: { 'x-padding': 'x'.repeat(17_000) } }).catch((e: Error) => e);
    // Node answers 431 and closes; fetch may see either the answer or the closed socket.
    if (res instanceof Error) assert.match(String(res.cause ?? res), /closed|reset|socket/i);
    else {
      assert.equal(res.status, 431);
      assert.equal(((await res.json()) as { error: string }).error, 'headers_too_large');
    }
  });

  it('an MCP body over 64 KB gets 413 and the JSON error body', async () => {
    const res = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }) });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: string }).error, 'payload_too_large');
  });

  it('a hub body over 16 KB gets 413 in plain text', async () => {
    const res = await fetch(`${svc.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `hub.mode=subscribe&hub.pad=${'x'.repeat(17_000)}`,
    });
    assert.equal(res.status, 413);
    assert.match(res.headers.get('content-type')!, /^text\/plain/);
  });

  it('a client that trickles its headers (slowloris) is cut off after the headers timeout', async () => {
    const bytes = ['GET /healthz HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`)];
    const { text, closedAfterMs } = await rawExchange(port, bytes, 100);
    assert.ok(closedAfterMs >= 500, `closed after ${closedAfterMs} ms, before the 500 ms timeout`);
    assert.ok(closedAfterMs < 4000, `closed only after ${closedAfterMs} ms of 4,000 ms of trickling`);
    assert.doesNotMatch(text, /200 OK/);
  });

  it('a client that sends headers but trickles its body is cut off after the request timeout', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n`;
    const { text, closedAfterMs } = await rawExchange(port, [head, ...Array.from({ length: 50 }, () => ' ')], 100);
    assert.ok(closedAfterMs < 5000, `closed only after ${closedAfterMs} ms`);
    assert.doesNotMatch(text, /200 OK/);
  });
});

describe('per-client rate limit', () => {
  it('every kind of endpoint counts against one limit: 429 with Retry-After, RateLimit headers and the JSON error body', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, http: { rateLimitPerMinute: 5, headersTimeoutMs: 2500, requestTimeoutMs: 45_000 } });
    try {
      const first = await fetch(`${svc.url}/reviews.json`);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('ratelimit-policy'), '5;w=60');
      assert.match(first.headers.get('ratelimit')!, /^limit=5, remaining=4, reset=\d+$/);
      for (const path of ['/api/reviews/search?rating=5', '/feed.xml', '/healthz']) assert.equal((await fetch(`${svc.url}${path}`)).status, 200, path);
      const developers = await (await fetch(`${svc.url}/developers`)).text();
      assert.match(developers, /may send 5 requests a minute/, 'the overview states the configured limit');
      assert.match(developers, /headers within 2\.5 s and its request within 45 s/, 'and the configured timeouts');
      for (const path of ['/reviews.json', '/api/reviews/search?rating=5', '/', '/nope']) {
        const res = await fetch(`${svc.url}${path}`);
        assert.equal(res.status, 429, path);
        assert.match(res.headers.get('retry-after')!, /^\d+$/);
        assert.match(res.headers.get('ratelimit')!, /remaining=0/);
        assert.equal(((await res.json()) as { error: string }).error, 'too_many_requests');
      }
      const mcp = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: '{}' });
      assert.equal(mcp.status, 429);
      const metrics = await fetch(`${svc.url}/metrics`);
      assert.equal(metrics.status, 429, 'metrics are limited like the rest');
    } finally {
      await svc.close();
    }
  });

  it('X-Forwarded-For is ignored unless TRUST_PROXY is set, and then the last entry is the client', async () => {
    const plain = await startTestService({ business: BUSINESS, reviews: REVIEWS, http: { rateLimitPerMinute: 2 } });
    const proxied = await startTestService({ business: BUSINESS, reviews: REVIEWS, http: { rateLimitPerMinute: 2 }, trustProxy: true });
    try {
      const statuses = async (url: string, forwarded: string[]) => {
        const out: number[] = [];
        for (const f of forwarded) out.push((await fetch(`${url}/healthz`, { headers: { 'x-forwarded-for': f } })).status);
        return out;
      };
      // Untrusted: a client can not escape the limit by inventing addresses.
      assert.deepEqual(await statuses(plain.url, ['1.1.1.1', '2.2.2.2', '3.3.3.3']), [200, 200, 429]);
      // Trusted: clients are told apart by the address the proxy appended, not by what they claim before it.
      assert.deepEqual(await statuses(proxied.url, ['9.9.9.9, 1.1.1.1', '8.8.8.8, 1.1.1.1', '7.7.7.7, 1.1.1.1', '2.2.2.2']), [200, 200, 429, 200]);
    } finally {
      await plain.close();
      await proxied.close();
    }
  });
});

describe('security headers on pages', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService({ business: BUSINESS, reviews: REVIEWS })));
  after(() => svc.close());

  for (const path of ['/', '/?rating=5', '/developers', '/developers/api', '/developers/mcp', '/developers/webhooks']) {
    it(`${path}: CSP without inline script, nosniff, Referrer-Policy, no framing; no executable inline script in the HTML`, async () => {
      const res = await fetch(`${svc.url}${path}`);
      assert.equal(res.status, 200);
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      const html = await res.text();
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\bsrc="|type="application\/(ld\+)?json"/, `inline script: ${tag}`);
    });
  }
});

describe('metrics', () => {
  it('/metrics counts requests by route template and status, with latency, revision and review count', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    try {
      await fetch(`${svc.url}/reviews.json`);
      await fetch(`${svc.url}/api/reviews/search?rating=9`);
      await fetch(`${svc.url}/api/reviews/since/2024-01-01`);
      await fetch(`${svc.url}/nowhere`);
      const res = await fetch(`${svc.url}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      assert.match(text, /reviewcast_http_requests_total\{route="\/reviews.json",method="GET",status="200"\} 1/);
      assert.match(text, /reviewcast_http_requests_total\{route="\/api\/reviews\/search",method="GET",status="400"\} 1/);
      assert.match(text, /reviewcast_http_requests_total\{route="\/api\/reviews\/since\/:date",method="GET",status="200"\} 1/);
      assert.match(text, /reviewcast_http_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
      assert.match(text, /reviewcast_http_request_duration_seconds_bucket\{le="0.005",route="\/reviews.json"\} \d/);
      assert.match(text, new RegExp(`reviewcast_reviews ${REVIEWS.length}`));
      assert.match(text, /reviewcast_data_revision [1-9]/);
      assert.match(text, /reviewcast_process_resident_memory_bytes \d/);
    } finally {
      await svc.close();
    }
  });
});

describe('graceful shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) it(`${signal}: refuses new connections, finishes the request under way, closes the store and exits 0`, async () => {
    const database = await freshDatabase('sqlite');
    const seed = await openTestStore(database);
    await seed.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
    await seed.close();
    const proc = await startServeProcess(database, { env: { SHUTDOWN_TIMEOUT_MS: '10000' } });
    const port = Number(new URL(proc.url).port);
    // A request whose body is only half sent when the signal arrives.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    const closed = new Promise((r) => socket.on('close', r));
    await new Promise((r) => socket.on('connect', r));
    // Expect: 100-continue makes the server say when it has taken the request in (Node answers
    // 100 Continue as it hands the request to the app): only then is it "under way".
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`);
    assert.ok(await eventually(async () => answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n'), 10_000, 10), `the server took the request in: ${answer}`);
    proc.child.kill(signal);
    assert.ok(await eventually(async () => proc.output().includes('"msg":"shutting down'), 10_000, 10), 'the server began shutting down');
    assert.match(proc.output(), new RegExp(`"signal":"${signal}"`));
    const refused = await eventually(() => fetch(`${proc.url}/healthz`).then(() => false, () => true), 5000);
    assert.ok(refused, `a new connection after ${signal} is refused`);
    socket.write(body.slice(20));
    await closed;
    answer = answer.replace('HTTP/1.1 100 Continue\r\n\r\n', '');
    assert.match(answer, /^HTTP\/1.1 200 OK/, answer);
    assert.match(answer, /"serverInfo"/);
    assert.equal(await proc.exited, 0);
    assert.match(proc.output(), /"msg":"shutting down/);
    assert.match(proc.output(), /"msg":"stopped"/);
    // The store was closed cleanly: it opens again with the data intact.
    const reopened = await openTestStore(database);
    assert.equal((await reopened.load()).reviews.length, REVIEWS.length);
    await reopened.close();
  });
});

describe('a body larger than a whole cache', () => {
  it('is logged once per cache, revision and kind of body, not on every request; the documents every reader gets are held by the revision, not the cache', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const reviews = benchReviews(3000);
    // Budgets far below the bodies: /reviews.json's MCP resource (about 2 MB escaped) never fits the documents', a gzipped since answer never fits the answers'.
    const svc = await startTestService({ business: BUSINESS, reviews, logger, cost: { documentCacheBytes: 64 * 1024, answerCacheBytes: 4 * 1024 } });
    try {
      const tooLarge = (cache: string, kind: string) => lines.filter((l) => l.includes(`"cache":"${cache}"`) && new RegExp(`"key":"\\d+:${kind}:`).test(l)).length;
      const init = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      assert.equal(init.status, 200);
      await init.arrayBuffer();
      const sid = init.headers.get('mcp-session-id')!;
      for (let i = 1; i <= 3; i++) {
        const read = await fetch(`${svc.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'resources/read', params: { uri: `${svc.url}/reviews.json` } }),
        });
        assert.equal(read.status, 200);
        assert.match(await read.text(), /"contents"/);
      }
      for (const day of ['01', '02', '03']) {
        const res = await fetch(`${svc.url}/api/reviews/since/1900-01-${day}`, { headers: { 'accept-encoding': 'gzip' } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-encoding'), 'gzip');
        await res.arrayBuffer();
      }
      const snap = svc.server.live.current();
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${svc.url}/reviews.json`, { headers: { 'accept-encoding': 'gzip' } })).status, 200);
      // /reviews.json (about 2 MB) is far above the documents' budget, yet made once: the same object each time, its codings with it.
      const topic = snap.topic('/reviews.json', svc.url);
      assert.equal(snap.topic('/reviews.json', svc.url), topic);
      assert.ok(topic.coded('gzip') && topic.coded('br'));
      assert.equal(snap.insightsDocument(), snap.insightsDocument());
      assert.equal(tooLarge('documents', 'topic'), 0, lines.join(''));
      // /metrics tells them apart: the held documents (at least /reviews.json and its gzip form) beside the cache's figure.
      const metrics = await (await fetch(`${svc.url}/metrics`)).text();
      const held = Number(/^reviewcast_documents_bytes (\d+)$/m.exec(metrics)?.[1]);
      assert.ok(held >= topic.size + topic.coded('gzip')!.length, `held ${held}`);
      assert.equal(held, snap.heldBytes);
      assert.ok(Number(/^reviewcast_cache_bytes\{cache="documents"\} (\d+)$/m.exec(metrics)?.[1]) <= 64 * 1024);
      assert.equal(tooLarge('documents', 'escaped'), 1, lines.join(''));
      assert.equal(tooLarge('answers', 'since'), 1, lines.join(''));
    } finally {
      await svc.close();
    }
  });
});

describe('a retired revision', () => {
  it('is let go once a new one is served, after MCP clients listed and completed its prompts', async () => {
    assert.ok(globalThis.gc, 'run with --expose-gc (npm test does)');
    const reviews = benchReviews(600);
    const svc = await startTestService({ business: BUSINESS, reviews: reviews.slice(0, 400), revisionPollMs: 50 });
    try {
      const init = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      await init.arrayBuffer();
      const headers = { ...MCP_HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      const call = async (id: number, method: string, params: object) => {
        const res = await fetch(`${svc.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
        assert.equal(res.status, 200);
        return res.text();
      };
      const retired: WeakRef<object>[] = [];
      for (let i = 1; i <= 3; i++) {
        const snap = svc.server.live.current();
        retired.push(new WeakRef(snap));
        assert.match(await call(i, 'prompts/list', {}), /summarise_aspect/);
        assert.match(await call(i + 10, 'completion/complete', { ref: { type: 'ref/prompt', name: 'summarise_aspect' }, argument: { name: 'aspect', value: 'pri' } }), /pricing/);
        await svc.store.importReviews({ reviews: reviews.slice(0, 400 + i * 50), business: BUSINESS, replace: false, dryRun: false });
        assert.ok(await eventually(async () => svc.server.live.current() !== snap, 10_000));
      }
      // A WeakRef's target is kept until the current job ends: collect between turns.
      for (let i = 0; i < 5; i++) {
        globalThis.gc!();
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(retired.map((r) => r.deref() !== undefined), [false, false, false], 'no retired snapshot is still reachable');
    } finally {
      await svc.close();
    }
  });
});
