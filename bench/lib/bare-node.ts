// Starts bench:http's bare node:http baseline (bare-node-server.ts) in its own process.
import { spawn } from 'node:child_process';
import type { OutgoingHttpHeaders } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitUntilServing } from '../../test/serve.js';

const SERVER = fileURLToPath(new URL('./bare-node-server.ts', import.meta.url));

/** What the baseline sends for one path: its bodies, the ETag a 304 answers, and our server's headers per variant. */
export interface BareFile {
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  headers: { identity: OutgoingHttpHeaders; gzip: OutgoingHttpHeaders; notModified: OutgoingHttpHeaders };
}

/** Starts bare-node-server.ts in its own process over the given bytes and headers. */
export async function startBareNode(files: Record<string, BareFile>): Promise<{ url: string; pid: number; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bare-'));
  const manifest: Record<string, Omit<BareFile, 'body' | 'gzip'> & { body: string; gzip: string | null }> = {};
  Object.entries(files).forEach(([path, f], i) => {
    writeFileSync(join(dir, `${i}`), f.body);
    if (f.gzip) writeFileSync(join(dir, `${i}.gz`), f.gzip);
    manifest[path] = { etag: f.etag, headers: f.headers, body: join(dir, `${i}`), gzip: f.gzip ? join(dir, `${i}.gz`) : null };
  });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, join(dir, 'manifest.json'), String(port)], { stdio: 'inherit' });
  process.once('exit', () => child.kill());
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}${Object.keys(files)[0]}`, child);
  return { url, pid: child.pid!, stop: () => void child.kill() };
}
