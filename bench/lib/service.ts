import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/reviewcast.js', import.meta.url));

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Polls `url` until it answers 2xx; throws if `child` exits first, or once `timeoutMs` has passed. */
export async function waitUntilServing(url: string, child: ChildProcess, timeoutMs = Infinity): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering ${url}`);
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
    if (await fetch(url).then(async (r) => (await r.arrayBuffer(), r.ok), () => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Service {
  url: string;
  pid: number;
  /** Spawn to the first 200 from /insights.json (every document built). */
  startupMs: number;
  /** Peak resident set so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  rssMiB(): number;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Starts the built server (`bin/reviewcast.js serve`) in its own process over a database. */
export async function startService(databaseUrl: string, env: Record<string, string> = {}): Promise<Service> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      // The load generator is one client; the per-client limit would measure 429s.
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let stopping = false;
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      if (!stopping) console.error(`server exited unexpectedly: code ${code}, signal ${signal}`);
      r();
    }),
  );
  // A benchmark that throws must not leave its server running.
  process.once('exit', () => child.kill());
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}/insights.json`, child);
  const startupMs = performance.now() - t0;
  // Background work after startup (the hub's first pass) can block the loop; wait until it answers promptly.
  for (;;) {
    const h0 = performance.now();
    const ok = await fetch(`${url}/healthz`).then(async (r) => (await r.arrayBuffer(), r.ok), () => false);
    if (ok && performance.now() - h0 < 100) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    startupMs,
    peakRssMiB: () => statusField(pid, 'VmHWM'),
    rssMiB: () => statusField(pid, 'VmRSS'),
    async stop() {
      stopping = true;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
