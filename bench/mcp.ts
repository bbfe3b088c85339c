/**
 * MCP overhead: `tools/call search_reviews` against GET /api/reviews/search with the same
 * filters, on the same server (its own process, fresh SQLite database with N reviews), both
 * driven by wrk from a third process in alternating runs. The ratio is MCP over HTTP.
 * Usage: npm run bench:mcp [-- seconds [reviews]]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase } from './lib/dataset.js';
import { meanLoad, wrk, type LoadResult } from './lib/load.js';
import { startService } from './lib/service.js';
import { markdownTable } from './lib/table.js';

const seconds = Number(process.argv[2] ?? 3);
const n = Number(process.argv[3] ?? 100_000);
const CONNECTIONS = 8;
const PROTOCOL = '2025-06-18';

const service = await startService(await benchDatabase(n));
const init = await fetch(`${service.url}/mcp`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
});
const session = init.headers.get('mcp-session-id');
const initBody = await init.text();
if (!session) throw new Error(`initialize answered ${init.status}: ${initBody}`);

const searches: { name: string; args: Record<string, string | number> }[] = [
  { name: 'rating=5', args: { rating: 5, limit: 20 } },
  { name: 'query "on time"', args: { query: 'on time', limit: 20 } },
  { name: 'service + min_rating + since', args: { mentions_service: 'ac_repair', min_rating: 4, since: '2026-01-01', limit: 20 } },
];

const dir = mkdtempSync(join(tmpdir(), 'rc-mcp-bench-'));
const rows: Record<string, string | number>[] = [];
for (const s of searches) {
  const script = join(dir, 'mcp.lua');
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: s.args } });
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Accept"] = "application/json, text/event-stream"\nwrk.headers["Mcp-Session-Id"] = "${session}"\nwrk.headers["MCP-Protocol-Version"] = "${PROTOCOL}"\n`,
  );
  const check = await fetch(`${service.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL },
    body,
  });
  if (check.status !== 200 || (await check.text()).includes('"isError":true')) throw new Error(`tools/call failed: ${check.status}`);
  const httpUrl = `${service.url}/api/reviews/search?${new URLSearchParams(Object.entries(s.args).map(([k, v]) => [k, String(v)]))}`;
  const mcp: LoadResult[] = [];
  const http: LoadResult[] = [];
  for (let round = 0; round < 2; round++) {
    http.push(wrk(httpUrl, { seconds, connections: CONNECTIONS }));
    mcp.push(wrk(`${service.url}/mcp`, { seconds, connections: CONNECTIONS, script }));
  }
  const h = meanLoad(http);
  const m = meanLoad(mcp);
  rows.push({
    search: s.name,
    'HTTP req/s': Math.round(h.rps),
    'MCP req/s': Math.round(m.rps),
    'MCP / HTTP': (m.rps / h.rps).toFixed(2),
    'HTTP p50/p99 ms': `${h.p50ms.toFixed(2)} / ${h.p99ms.toFixed(2)}`,
    'MCP p50/p99 ms': `${m.p50ms.toFixed(2)} / ${m.p99ms.toFixed(2)}`,
    errors: h.errors + m.errors,
  });
}
await service.stop();
console.log(`\n${n.toLocaleString('en')} reviews, ${CONNECTIONS} connections, wrk 1 thread, 2 alternating runs of ${seconds}s\n`);
console.log(markdownTable(rows));
