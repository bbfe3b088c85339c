/**
 * HTTP throughput of the pre-compressed datasets against a baseline measured in the same run:
 * a bare node:http server answering with the very same bytes (no routing, no negotiation,
 * no conditional logic). Both on loopback, both driven by autocannon from this process.
 * Usage: npm run bench [-- seconds]
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { loadHubConfig, loadMcpConfig } from '../src/config.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { startServer } from '../src/http/server.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const seconds = Number(process.argv[2] ?? 5);
const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'rc-bench-')), 'bench.db'));
await store.importReviews({ reviews: demoReviews(), business: DEMO_BUSINESS, replace: false, dryRun: false });
const server = await startServer({ store, logger: pino({ level: 'silent' }), host: '127.0.0.1', port: 0, revisionPollMs: 1000, hub: loadHubConfig({}), mcp: loadMcpConfig({}) });

async function body(path: string, encoding: string): Promise<{ buf: Buffer; type: string; etag: string }> {
  const res = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': encoding } });
  return { buf: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type')!, etag: res.headers.get('etag')! };
}

// The baseline serves the exact bytes our server sends for the same request (brotli for /reviews.json).
const { brotliCompressSync } = await import('node:zlib');
const plain = await body('/reviews.json', 'identity');
const brBytes = brotliCompressSync(plain.buf);
const baseline = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': plain.type, 'content-encoding': 'br', 'content-length': brBytes.length });
  res.end(brBytes);
});
await new Promise<void>((r) => baseline.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}`;

async function run(name: string, url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections: 32, duration: seconds, headers });
  return {
    target: name,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'MB/s': (r.throughput.average / 2 ** 20).toFixed(1),
    // Conditional requests answer 304, which autocannon files under non-2xx.
    'non-2xx': r.non2xx,
    errors: r.errors,
  };
}

const rows = [];
rows.push(await run('baseline: node:http, same br bytes', `${baseUrl}/`, { 'accept-encoding': 'br' }));
rows.push(await run('reviewcast GET /reviews.json (br)', `${server.url}/reviews.json`, { 'accept-encoding': 'br' }));
rows.push(await run('reviewcast GET /reviews.json, 304', `${server.url}/reviews.json`, { 'if-none-match': plain.etag }));
rows.push(await run('reviewcast search (cached per revision)', `${server.url}/api/reviews/search?min_rating=4&mentions_service=ac_repair`, {}));
rows.push(await run('reviewcast GET /insights.json (br)', `${server.url}/insights.json`, { 'accept-encoding': 'br' }));
console.log(`${demoReviews().length} reviews, ${plain.buf.length} bytes identity / ${brBytes.length} br; 32 connections, ${seconds}s each`);
console.table(rows);
await server.close();
await store.close();
baseline.close();
