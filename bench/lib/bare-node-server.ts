/**
 * The second baseline of bench:http: node:http alone, answering from memory with the same
 * bytes, the ETag and the gzip variant, and nothing else (no routing, validation, negotiation
 * beyond "gzip or not", rate limit or metrics). What one Node process can do here at best.
 * Usage (by bench/lib/bare-node.ts): node --import tsx bare-node-server.ts <manifest.json> <port>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Entry {
  type: string;
  etag: string;
  body: string;
  gzip: string | null;
}

const [manifestPath, port] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath!, 'utf8')) as Record<string, Entry>;
const files = new Map(
  Object.entries(manifest).map(([path, e]) => [path, { type: e.type, etag: e.etag, body: readFileSync(e.body), gzip: e.gzip ? readFileSync(e.gzip) : null }]),
);

createServer((req, res) => {
  const file = files.get(req.url ?? '');
  if (!file) return void res.writeHead(404).end();
  if (req.headers['if-none-match'] === file.etag) return void res.writeHead(304, { etag: file.etag }).end();
  const gzip = file.gzip !== null && (req.headers['accept-encoding'] ?? '').includes('gzip');
  const body = gzip ? file.gzip! : file.body;
  res.writeHead(200, { 'content-type': file.type, 'content-length': body.length, etag: file.etag, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
  res.end(body);
}).listen(Number(port), '127.0.0.1');
