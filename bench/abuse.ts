/**
 * Issue 15: /healthz latency while one anonymous client asks for the largest answers there are
 * (1,000 distinct old /api/reviews/since dates, then 200 large MCP calls, in two parallel loops),
 * against the same probe with nothing else going on, in the same run. Run twice: with the default
 * limits (the cost-weighted limit refuses the attacker) and with the cost limit lifted (only the
 * byte-bounded caches and off-loop compression stand between the attacker and the event loop).
 * The probe is its own process (bench/lib/probe.ts), one GET every 60 ms from another client (within its 1,200 requests a minute).
 * Usage: npm run bench:abuse [-- reviews [quiet-seconds [default|lifted|both]]]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchDatabase } from './lib/dataset.js';
import { startService, type Service } from './lib/service.js';
import { percentile } from './lib/stats.js';
import { markdownTable } from './lib/table.js';

const n = Number(process.argv[2] ?? 20_000);
const quietSeconds = Number(process.argv[3] ?? 15);
const which = process.argv[4] ?? 'both';
const ATTACKER = '203.0.113.66';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', 'x-forwarded-for': ATTACKER };
const oldDate = (i: number) => new Date(Date.UTC(1900, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

/** Probes /healthz while `during` runs; the latencies in ms, sorted. */
async function probe(url: string, during: () => Promise<unknown>): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('lib/probe.ts', import.meta.url)), url, '60'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise((r) => child.once('exit', r));
  await new Promise((r) => setTimeout(r, 1000));
  await during();
  child.kill('SIGKILL');
  await done;
  return out.split('\n').filter(Boolean).map(Number).sort((a, b) => a - b);
}

async function drain(res: Response): Promise<number> {
  let bytes = 0;
  for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).length;
  return bytes;
}

interface Attack {
  ok: number;
  refused: number;
  bytes: number;
}

/** One attacker loop: `dates` old since dates, then `mcpCalls` large MCP calls, each waiting for the last. */
async function attackLoop(url: string, offset: number, dates: number, mcpCalls: number, tally: Attack): Promise<void> {
  const codings = ['identity', 'gzip', 'br'];
  for (let i = 0; i < dates; i++) {
    const res = await fetch(`${url}/api/reviews/since/${oldDate(offset + i)}`, { headers: { 'x-forwarded-for': ATTACKER, 'accept-encoding': codings[i % 3]! } });
    tally.bytes += await drain(res);
    if (res.status === 200) tally.ok++;
    else tally.refused++;
  }
  const init = await fetch(`${url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } } }) });
  await init.arrayBuffer();
  const sid = init.headers.get('mcp-session-id');
  for (let i = 0; i < mcpCalls; i++) {
    const body =
      i % 2
        ? { jsonrpc: '2.0', id: i + 1, method: 'resources/read', params: { uri: `${url}/reviews.json` } }
        : { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'get_reviews_since', arguments: { date: oldDate(i), limit: 100 } } };
    const res = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...(sid ? { 'mcp-session-id': sid } : {}) }, body: JSON.stringify(body) });
    tally.bytes += await drain(res);
    if (res.status === 200) tally.ok++;
    else tally.refused++;
  }
}

async function scenario(name: string, database: string, env: Record<string, string>): Promise<Record<string, string | number>[]> {
  const service: Service = await startService(database, { TRUST_PROXY: 'true', ...env });
  const quiet = await probe(service.url, () => new Promise((r) => setTimeout(r, quietSeconds * 1000)));
  const tally: Attack = { ok: 0, refused: 0, bytes: 0 };
  const t0 = performance.now();
  let load = 0;
  const attacked = await probe(service.url, async () => {
    // Two loops of 500 dates and 100 MCP calls: 1,000 dates and 200 calls in all.
    await Promise.all([attackLoop(service.url, 0, 500, 100, tally), attackLoop(service.url, 500, 500, 100, tally)]);
    load = loadavg()[0]!;
  });
  const seconds = (performance.now() - t0) / 1000;
  const rss = service.peakRssMiB();
  await service.stop();
  const row = (phase: string, l: number[], extra: Record<string, string | number>) => ({
    scenario: name,
    phase,
    probes: l.length,
    'p50 ms': percentile(l, 50).toFixed(1),
    'p99 ms': percentile(l, 99).toFixed(1),
    'max ms': (l.at(-1) ?? NaN).toFixed(1),
    'p99 < 50 ms': percentile(l, 99) < 50 ? 'yes' : '**no**',
    ...extra,
  });
  return [
    row('quiet', quiet, { 'attacker 200 / 429': '-', 'attacker MB': '-', 'attack s': '-', 'peak RSS MiB': '-', 'load avg (1 min)': '-' }),
    row('under attack', attacked, {
      'attacker 200 / 429': `${tally.ok} / ${tally.refused}`,
      'attacker MB': Math.round(tally.bytes / 1e6),
      'attack s': seconds.toFixed(1),
      'peak RSS MiB': Math.round(rss),
      'load avg (1 min)': load.toFixed(2),
    }),
  ];
}

const database = await benchDatabase(n);
const rows = [
  ...(which === 'lifted' ? [] : await scenario('default limits', database, { RATE_LIMIT_PER_MINUTE: '1200', RATE_LIMIT_COST_KB: '65536' })),
  ...(which === 'default' ? [] : await scenario('cost limit lifted', database, { RATE_LIMIT_PER_MINUTE: '1200', RATE_LIMIT_COST_KB: '1000000000' })),
];
console.log(`\n${n.toLocaleString('en')} reviews; probe: GET /healthz every 60 ms from its own process; attacker: 2 loops, 1,000 old since dates (identity/gzip/br) then 200 MCP calls (resources/read /reviews.json, get_reviews_since limit 100)\n`);
console.log(markdownTable(rows));
