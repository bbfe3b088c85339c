import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, waitUntilServing } from '../../test/serve.js';

export interface Nginx {
  url: string;
  stop(): void;
}

const NGINX = '/usr/sbin/nginx';

/**
 * Debian's nginx on loopback serving the given files (path -> bytes) with the stock
 * production habits: one worker per core, sendfile, keep-alive, and the very gzip bytes our
 * server sends as the pre-compressed variant.
 */
export async function startNginx(files: Record<string, { body: Buffer; gzip: Buffer | null; type: string }>): Promise<Nginx> {
  if (spawnSync(NGINX, ['-v']).error) throw new Error('nginx is not installed: apt-get install -y nginx-light');
  const dir = mkdtempSync(join(tmpdir(), 'rc-nginx-'));
  // Started as root, nginx's workers run as nobody and must be able to read the files.
  chmodSync(dir, 0o755);
  const root = join(dir, 'www');
  const types = new Map<string, string>();
  for (const [path, f] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, f.body);
    if (f.gzip) writeFileSync(`${file}.gz`, f.gzip);
    types.set(path, f.type);
  }
  const port = await freePort();
  const locations = [...types].map(([path, type]) => `    location = ${path} { default_type ${type}; }`).join('\n');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes auto;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp;
  gzip_static on;
  types { }
  server {
    listen 127.0.0.1:${port};
    root ${root};
${locations}
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(`${url}${Object.keys(files)[0]}`, child, 10_000);
  } catch (err) {
    child.kill();
    throw new Error(`nginx did not start (${(err as Error).message}):\n${readFileSync(join(dir, 'error.log'), 'utf8')}`);
  }
  return { url, stop: () => void child.kill('SIGQUIT') };
}
