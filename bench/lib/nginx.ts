import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, waitUntilServing } from '../../test/serve.js';

export interface Nginx {
  url: string;
  /** The master process (its workers are its children). */
  pid: number;
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
  return { url, pid: child.pid!, stop: () => void child.kill('SIGQUIT') };
}

/** deploy/nginx.conf as shipped, listening on `port`, with its pid, log, temporary and cache paths under `dir` (for a benchmark's or a test's own run). */
export function deployedConfIn(dir: string, port: number): string {
  return readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8')
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace(/^pid .*$/m, `pid ${dir}/nginx.pid;`)
    .replace(/^error_log .*$/m, `error_log ${dir}/error.log warn;`)
    .replace(/client_body_temp_path .*;/, `client_body_temp_path ${dir}/body;`)
    .replace(/proxy_temp_path .*;/, `proxy_temp_path ${dir}/proxy;`)
    .replace(/proxy_cache_path \S+/, `proxy_cache_path ${dir}/cache`);
}

/**
 * deploy/nginx.conf as shipped (its cache in front of the replicas), with one upstream, our
 * server at `upstream`, and this run's port and paths; as many workers as the disk baseline.
 */
export async function startNginxInFront(upstream: string, probePath: string): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-nginx-front-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const conf = deployedConfIn(dir, port)
    .replace(/^worker_processes .*$/m, 'worker_processes auto;')
    .replace(/(upstream reviewcast(?:_mcp)? \{)([^}]*?)(keepalive)/gs, (_, head: string, body: string, tail: string) => `${head}${body.replace(/^\s*server .*\n/gm, '')}\n    server ${new URL(upstream).host};\n    ${tail}`)
    .replace('worker_connections 1024;', 'worker_connections 4096;');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(`${url}${probePath}`, child, 10_000);
  } catch (err) {
    child.kill();
    throw new Error(`nginx did not start (${(err as Error).message}):\n${readFileSync(join(dir, 'error.log'), 'utf8')}`);
  }
  return { url, pid: child.pid!, stop: () => void child.kill('SIGQUIT') };
}
