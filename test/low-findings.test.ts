// The small hardening items: MCP sessions (idle floor, cap, failed initialize, DELETE), protocol params, empty batches, long and hex parameters, broken and control characters in review text.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadMcpConfig } from '../src/config.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { runCli, startTestService, tempDir, type TestService } from './helpers.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } };

async function post(svc: TestService, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, sid: res.headers.get('mcp-session-id'), body: text ? (JSON.parse(text) as unknown) : null };
}
type RpcError = { id: unknown; error: { code: number; message: string } };

describe('MCP sessions', () => {
  it('MCP_SESSION_IDLE_SECONDS below 15 is refused with a clear message (shorter would end sessions in use)', () => {
    assert.throws(() => loadMcpConfig({ MCP_SESSION_IDLE_SECONDS: '10' }), (e: unknown) => e instanceof ConfigError && /MCP_SESSION_IDLE_SECONDS: must be at least 15 .*end sessions in use/.test(e.message));
    assert.equal(loadMcpConfig({ MCP_SESSION_IDLE_SECONDS: '15' }).sessionIdleSeconds, 15);
  });

  it('a failed initialize starts no session', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    try {
      const before = await svc.store.countLiveMcpSessions(0, 0);
      const bad = await post(svc, { ...INIT, params: { protocolVersion: 5 } });
      assert.equal(bad.status, 200);
      assert.equal((bad.body as RpcError).error.code, -32602);
      assert.equal(bad.sid, null);
      assert.equal(await svc.store.countLiveMcpSessions(0, 0), before);
    } finally {
      await svc.close();
    }
  });

  it('caps live sessions (MCP_MAX_SESSIONS): 503 beyond it, room again once one ends', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, mcp: { maxSessions: 2 } });
    try {
      const first = (await post(svc, INIT)).sid!;
      assert.ok((await post(svc, INIT)).sid);
      const third = await post(svc, INIT);
      assert.equal(third.status, 503);
      assert.equal(third.sid, null);
      assert.match((third.body as RpcError).error.message, /2 MCP sessions are open/);
      assert.equal((await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': first } })).status, 204);
      assert.ok((await post(svc, INIT)).sid);
    } finally {
      await svc.close();
    }
  });

  it('an idle session leaves the count and its row is pruned, long before the 24 h lifetime', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, mcp: { maxSessions: 1, sessionIdleSeconds: 60 } });
    try {
      // Used last two hours ago: idle by far, though its token would live for another 22 hours.
      const now = Date.now();
      await svc.store.createMcpSession('idle-session-row-0000000', now - 2 * 3_600_000);
      assert.ok((await post(svc, INIT)).sid, 'the idle session does not hold the only place');
      assert.equal(await svc.store.useMcpSession('idle-session-row-0000000', now, 1e12, 1e12), 'unknown', 'its row was pruned');
    } finally {
      await svc.close();
    }
  });

  it('DELETE with Content-Type: application/json and no body ends the session', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    try {
      const sid = (await post(svc, INIT)).sid!;
      const del = await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { 'content-type': 'application/json', 'mcp-session-id': sid } });
      assert.equal(del.status, 204);
      assert.equal((await post(svc, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sid })).status, 404);
    } finally {
      await svc.close();
    }
  });
});

describe('MCP protocol errors', () => {
  let svc: TestService;
  let sid: string;
  before(async () => {
    svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    sid = (await post(svc, INIT)).sid!;
  });
  after(() => svc.close());
  const session = () => ({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' });

  for (const [what, message, expected] of [
    ['resources/read without a uri', { jsonrpc: '2.0', id: 7, method: 'resources/read', params: {} }, /^Invalid params for resources\/read: params\.uri: expected string, received undefined$/],
    ['tools/call without a name', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } }, /^Invalid params for tools\/call: params\.name: expected string/],
    ['tools/call with arguments that are not an object', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_business', arguments: 5 } }, /^Invalid params for tools\/call: params\.arguments: /],
  ] as const) {
    it(`${what} is -32602 with a short message, not -32603 with a zod dump`, async () => {
      const res = await post(svc, message, session());
      assert.equal(res.status, 200);
      const body = res.body as RpcError;
      assert.equal(body.id, 7);
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, expected);
      assert.doesNotMatch(body.error.message, /\n|"code"/);
    });
  }

  it('invalid tool arguments stay an isError result naming the argument (reference notes §3.6)', async () => {
    const res = await post(svc, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'search_reviews', arguments: { limit: 'ten' } } }, session());
    const result = (res.body as { result: { isError: boolean; content: { text: string }[] } }).result;
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /argument "limit"/);
  });

  it('in a batch, the request with invalid params gets -32602 and the others their answers', async () => {
    const res = await post(svc, [{ jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} }, { jsonrpc: '2.0', id: 2, method: 'ping' }], session());
    assert.equal(res.status, 200);
    const answers = res.body as { id: number; error?: { code: number }; result?: unknown }[];
    assert.deepEqual(answers.map((a) => [a.id, a.error?.code ?? 'result']).sort(), [[1, -32602], [2, 'result']]);
  });

  it('an empty batch is one Invalid Request error (-32600, HTTP 400), not 202', async () => {
    const res = await post(svc, [], session());
    assert.equal(res.status, 400);
    assert.deepEqual({ ...(res.body as RpcError), error: { code: (res.body as RpcError).error.code } }, { jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});

describe('HTTP parameters', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
  });
  after(() => svc.close());

  it('a 101-character since date is 400 validation_error, not 414', async () => {
    const res = await fetch(`${svc.url}/api/reviews/since/${'2024-01-01'.padEnd(101, '0')}`);
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'validation_error');
  });

  for (const limit of ['0x10', '1e1', '+16', '%2016', '16.0.0']) {
    it(`limit=${limit} is 400, never read as a number`, async () => {
      const res = await fetch(`${svc.url}/api/reviews/search?limit=${limit}`);
      assert.equal(res.status, 400);
      const body = (await res.json()) as { issues: { parameter: string }[] };
      assert.equal(body.issues[0]!.parameter, 'limit');
    });
  }
});

describe('review text', () => {
  it('an unpaired surrogate is refused at import, naming the record and the field', async () => {
    const file = join(tempDir(), 'broken.json');
    const broken = [{ author: 'Ann', rating: 5, date: '2024-05-01', source: 'google', text: 'Great \ud83d job' }, { author: 'Bo\udc00b', rating: 4, date: '2024-05-02', source: 'google' }];
    writeFileSync(file, JSON.stringify(broken));
    const res = await runCli(['import', file], { DATABASE_URL: join(tempDir(), 'x.db') });
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, /record 1 \(\[0\]\), field text: contains an unpaired UTF-16 surrogate/);
    assert.match(res.stderr, /record 2 \(\[1\]\), field author: contains an unpaired UTF-16 surrogate/);
  });

  it('control characters in review text never reach the HTML raw', async () => {
    const text = 'Fixed it\u001b[2J fast\u0007, rang\u0085 twice\u009b; tab\tand\nline stay';
    const svc = await startTestService({ business: BUSINESS, reviews: [{ ...REVIEWS[0]!, text, author: 'Eve\u0000\u007f' }] });
    try {
      for (const path of ['/', `/reviews/${REVIEWS[0]!.id}`]) {
        const page = await (await fetch(`${svc.url}${path}`)).text();
        assert.ok(page.includes('Fixed it\uFFFD[2J fast\uFFFD, rang\uFFFD twice\uFFFD; tab\tand\nline stay'), path);
        assert.ok(![...page].some((c) => (c < ' ' && !'\t\n\r\f'.includes(c)) || (c >= '\u007f' && c <= '\u009f')), `${path} has a raw control character`);
      }
    } finally {
      await svc.close();
    }
  });
});
