// A store that can not be reached: MCP and the hub answer 503 store_unavailable with Retry-After (logged once), the read API goes on, and both come back with the store.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { storeUnreachable } from '../src/http/store-outage.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { recordingLogger, startTestService, TEST_STORE } from './helpers.js';

const ACCEPT = 'application/json, text/event-stream';
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } };
const OUTAGE_LOG = /^the store can not be reached/;

/** An admin connection to the PostgreSQL server of `database` (through the `test` database, so not one of its own). */
async function pgAdmin(database: string): Promise<{ client: pg.Client; name: string }> {
  const url = new URL(database);
  const name = url.pathname.slice(1);
  url.pathname = '/test';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return { client, name };
}

/**
 * Takes the store away under a running server and returns how to give it back. SQLite: the
 * database, its WAL and shared memory overwritten with garbage (in one synchronous step, so no
 * write of the server's falls between), then their bytes put back. PostgreSQL: the database set
 * to refuse connections and its connections ended, then allowed again.
 */
async function cutOff(database: string): Promise<() => Promise<void>> {
  if (TEST_STORE === 'sqlite') {
    const files = ['', '-wal', '-shm'].map((suffix) => `${database}${suffix}`);
    const saved = files.map((file) => readFileSync(file));
    for (const file of files) writeFileSync(file, Buffer.alloc(65_536, 0x42));
    return async () => files.forEach((file, i) => writeFileSync(file, saved[i]!));
  }
  const { client, name } = await pgAdmin(database);
  try {
    await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  } catch (err) {
    await client.end();
    throw err;
  }
  return async () => {
    try {
      await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    } finally {
      await client.end();
    }
  };
}

async function mcp(url: string, method: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${url}/mcp`, { method, headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function hub(url: string, callback: string): Promise<{ status: number; headers: Headers; text: string }> {
  const body = new URLSearchParams({ 'hub.callback': callback, 'hub.mode': 'subscribe', 'hub.topic': `${url}/feed.xml` }).toString();
  const res = await fetch(`${url}/api/websub/hub`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** MCP's 503 for a store out of reach: the JSON-RPC error of its other refusals, naming the code, with Retry-After. */
function assertMcpUnavailable(res: { status: number; headers: Headers; text: string }, what: string): void {
  assert.equal(res.status, 503, `${what}: ${res.text}`);
  assert.equal(res.headers.get('retry-after'), '5', what);
  assert.match(res.headers.get('content-type')!, /^application\/json/, what);
  const body = JSON.parse(res.text) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: { error?: string } } };
  assert.equal(body.jsonrpc, '2.0', what);
  assert.equal(body.id, null, what);
  assert.equal(body.error.code, -32000, what);
  assert.equal(body.error.data?.error, 'store_unavailable', what);
  assert.match(body.error.message, /^Service Unavailable: .*store.*retry in 5 s/, what);
}

describe('a store that can not be reached', () => {
  it('MCP and the hub answer 503 store_unavailable with Retry-After, logged once at warn; the read API goes on; both recover with the store', async () => {
    const { logger, lines } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, logger });
    let restore: (() => Promise<void>) | undefined;
    try {
      const init = await mcp(svc.url, 'POST', INIT);
      assert.equal(init.status, 200);
      const sid = init.headers.get('mcp-session-id')!;
      const session = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

      restore = await cutOff(svc.database);
      for (let round = 0; round < 2; round++) {
        assertMcpUnavailable(await mcp(svc.url, 'POST', INIT), 'initialize');
        assertMcpUnavailable(await mcp(svc.url, 'POST', list, session), 'tools/list in a session');
        assertMcpUnavailable(await mcp(svc.url, 'GET', undefined, { ...session, accept: 'text/event-stream' }), 'GET /mcp');
        assertMcpUnavailable(await mcp(svc.url, 'DELETE', undefined, session), 'DELETE /mcp');
        const refused = await hub(svc.url, 'https://subscriber.example/cb');
        assert.equal(refused.status, 503, refused.text);
        assert.equal(refused.headers.get('retry-after'), '5');
        assert.match(refused.headers.get('content-type')!, /^text\/plain/);
        assert.match(refused.text, /^store_unavailable: .*retry in 5 s\n$/);
        // What is served from memory is served still.
        assert.equal((await fetch(`${svc.url}/reviews.json`)).status, 200);
        assert.equal((await fetch(`${svc.url}/api/reviews/search?rating=5`)).status, 200);
      }
      const warned = lines.filter((l) => typeof l.msg === 'string' && OUTAGE_LOG.test(l.msg));
      // Ten refused requests, one line per cause: on PostgreSQL the first may meet a connection the
      // cut ended ("Connection terminated") before the rest meet the refusal, so one or two.
      const causes = warned.map((l) => String(l.cause));
      assert.ok(warned.length >= 1 && warned.length <= 2, `ten refused requests, a line per cause: ${causes.join(' | ')}`);
      assert.equal(new Set(causes).size, causes.length, `no cause told twice: ${causes.join(' | ')}`);
      for (const line of warned) {
        assert.equal(line.level, 40, 'at warn');
        assert.equal(line.err, undefined, 'its cause, not a stack');
      }
      assert.ok(causes.some((c) => (TEST_STORE === 'sqlite' ? /^SQLITE_NOTADB/ : /not currently accepting connections/).test(c)), causes.join(' | '));
      assert.deepEqual(lines.filter((l) => l.msg === 'request failed'), [], 'no request is logged as failing inside the service');

      await restore();
      restore = undefined;
      assert.equal((await mcp(svc.url, 'POST', INIT)).status, 200, 'initialize once the store is back');
      const listed = await mcp(svc.url, 'POST', list, session);
      assert.equal(listed.status, 200, 'the session from before the outage goes on');
      assert.ok((JSON.parse(listed.text) as { result?: { tools: unknown[] } }).result?.tools.length);
      assert.equal((await hub(svc.url, 'https://subscriber.example/cb')).status, 202);
    } finally {
      await restore?.();
      await svc.close();
    }
  });

  it('a store error that is a fault of the service (a table missing) is still 500 internal_error, logged with its stack', async () => {
    const { logger, lines } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, logger });
    try {
      const sid = (await mcp(svc.url, 'POST', INIT)).headers.get('mcp-session-id')!;
      if (TEST_STORE === 'sqlite') {
        const db = new Database(svc.database);
        db.exec('DROP TABLE mcp_sessions');
        db.close();
      } else {
        const client = new pg.Client({ connectionString: svc.database });
        await client.connect();
        await client.query('DROP TABLE mcp_sessions');
        await client.end();
      }
      const res = await mcp(svc.url, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sid });
      assert.equal(res.status, 500, res.text);
      assert.equal((JSON.parse(res.text) as { error: string }).error, 'internal_error');
      assert.ok(lines.some((l) => l.msg === 'request failed' && l.level === 50 && l.err !== undefined));
      assert.ok(!lines.some((l) => typeof l.msg === 'string' && OUTAGE_LOG.test(l.msg)));
    } finally {
      await svc.close();
    }
  });

  it('a client that goes away while its body is read is not a store outage', async () => {
    const { logger, lines } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, logger });
    try {
      for (const path of ['/mcp', '/api/websub/hub']) {
        const { port } = new URL(svc.url);
        const socket = connect(Number(port), '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`);
        await new Promise((r) => setTimeout(r, 100));
        socket.destroy();
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(lines.filter((l) => OUTAGE_LOG.test(String(l.msg))), [], 'no outage told');
      assert.equal((await fetch(`${svc.url}/healthz`)).status, 200);
    } finally {
      await svc.close();
    }
  });

  it('tells a store out of reach from a fault by the error itself', () => {
    const coded = (code: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...fields });
    const unreachable = [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), { code: 'ECONNREFUSED' }),
      coded('55000', { severity: 'FATAL' }),
      coded('57P01', { severity: 'FATAL' }),
      coded('08006', { severity: 'ERROR' }),
      coded('3D000', { severity: 'FATAL' }),
      new Error('Connection terminated unexpectedly'),
      new Error('wrapped', { cause: coded('SQLITE_CANTOPEN') }),
      coded('SQLITE_NOTADB'),
      coded('SQLITE_CORRUPT'),
      coded('SQLITE_IOERR_SHORT_READ'),
    ];
    const faults = [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      coded('SQLITE_ERROR'),
      coded('SQLITE_CONSTRAINT_UNIQUE'),
      coded('SQLITE_MISUSE'),
      coded('42P01', { severity: 'ERROR' }),
      coded('23505', { severity: 'ERROR' }),
      coded('55000', { severity: 'ERROR' }),
      coded('ERR_INVALID_ARG_TYPE'),
      // pg's words only count as its own message, not inside another.
      new Error('Saving failed: Connection terminated unexpectedly'),
      null,
      'ECONNREFUSED',
    ];
    for (const err of unreachable) assert.equal(storeUnreachable(err), true, String((err as Error).message));
    for (const err of faults) assert.equal(storeUnreachable(err), false, String((err as Error | null)?.message ?? err));
  });
});
