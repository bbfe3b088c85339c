// The built server in its own process for a benchmark, with its startup time and memory.
import { readFileSync } from 'node:fs';
import { startServeProcess } from '../../test/serve.js';
import { cpuSeconds } from './cpu.js';

export { freePort, waitUntilServing } from '../../test/serve.js';

export interface Service {
  url: string;
  pid: number;
  /** Spawn to the first 200 from /insights.json (every document built). */
  startupMs: number;
  /** CPU time (user + system) the server process had used by then. */
  startupCpuMs: number;
  /** Peak resident set so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  rssMiB(): number;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Starts the built server (`bin/reviewcast.js serve`, this checkout's or `root`'s) in its own process over a database. */
export async function startService(databaseUrl: string, env: Record<string, string> = {}, root?: string): Promise<Service> {
  const t0 = performance.now();
  const proc = await startServeProcess(databaseUrl, {
    root,
    passOutput: true,
    readyPath: '/insights.json',
    timeoutMs: Infinity,
    env: {
      LOG_LEVEL: 'warn',
      // The load generator is one client; the per-client limit would measure 429s.
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_COST_KB: '1000000000',
      ...env,
    },
  });
  const startupMs = performance.now() - t0;
  const startupCpuMs = cpuSeconds(proc.child.pid!) * 1000;
  let stopping = false;
  void proc.exited.then((how) => {
    if (!stopping) console.error(`server exited unexpectedly: ${how}`);
  });
  const url = proc.url;
  // Background work after startup (the hub's first pass) can block the loop; wait until it answers promptly.
  for (;;) {
    const h0 = performance.now();
    const ok = await fetch(`${url}/healthz`).then(async (r) => (await r.arrayBuffer(), r.ok), () => false);
    if (ok && performance.now() - h0 < 100) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = proc.child.pid!;
  return {
    url,
    pid,
    startupMs,
    startupCpuMs,
    peakRssMiB: () => statusField(pid, 'VmHWM'),
    rssMiB: () => statusField(pid, 'VmRSS'),
    async stop() {
      stopping = true;
      await proc.stop();
    },
  };
}
