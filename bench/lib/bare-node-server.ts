/**
 * The second baseline of bench:http: node:http alone, answering from memory with the same
 * bytes and the same headers our server sends for each variant (identity, gzip, 304; only Date
 * and Connection are Node's own, as for ours), and nothing else: no routing, validation,
 * negotiation beyond "gzip or not", rate limit or metrics. What one Node process can do here at best.
 * Its node:http server has our server's settings (src/http/server-options.ts: header size limit, headers and
 * request timeouts, keep-alive 72 s, a connection check every second): they cost Node about 2 µs
 * a request (RESULTS.md), and they are protections, not routing or metrics, so the floor has them too.
 * Usage (by bench/lib/bare-node.ts): node --import tsx bare-node-server.ts <manifest.json> <port>
 */
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { loadHttpConfig } from '../../src/config.js';
import { serverOptions } from '../../src/http/server-options.js';

interface Entry {
  etag: string;
  body: string;
  gzip: string | null;
  headers: { identity: OutgoingHttpHeaders; gzip: OutgoingHttpHeaders; notModified: OutgoingHttpHeaders };
}

const [manifestPath, port] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath!, 'utf8')) as Record<string, Entry>;
const files = new Map(Object.entries(manifest).map(([path, e]) => [path, { ...e, body: readFileSync(e.body), gzip: e.gzip ? readFileSync(e.gzip) : null }]));

createServer(serverOptions(loadHttpConfig({})), (req, res) => {
  const file = files.get(req.url ?? '');
  if (!file) return void res.writeHead(404).end();
  if (req.headers['if-none-match'] === file.etag) return void res.writeHead(304, file.headers.notModified).end();
  const gzip = file.gzip !== null && (req.headers['accept-encoding'] ?? '').includes('gzip');
  res.writeHead(200, gzip ? file.headers.gzip : file.headers.identity);
  res.end(gzip ? file.gzip : file.body);
}).listen(Number(port), '127.0.0.1');
