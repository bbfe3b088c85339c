import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitUntilServing } from '../../test/serve.js';

const SERVER = fileURLToPath(new URL('./bare-node-server.ts', import.meta.url));

/** Starts bare-node-server.ts in its own process over the given bytes (path -> body, gzip, type, ETag). */
export async function startBareNode(files: Record<string, { body: Buffer; gzip: Buffer | null; type: string; etag: string }>): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bare-'));
  const manifest: Record<string, { type: string; etag: string; body: string; gzip: string | null }> = {};
  Object.entries(files).forEach(([path, f], i) => {
    writeFileSync(join(dir, `${i}`), f.body);
    if (f.gzip) writeFileSync(join(dir, `${i}.gz`), f.gzip);
    manifest[path] = { type: f.type, etag: f.etag, body: join(dir, `${i}`), gzip: f.gzip ? join(dir, `${i}.gz`) : null };
  });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, join(dir, 'manifest.json'), String(port)], { stdio: 'inherit' });
  process.once('exit', () => child.kill());
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}${Object.keys(files)[0]}`, child);
  return { url, stop: () => void child.kill() };
}
