import { spawnSync } from 'node:child_process';
import { cpuSeconds } from './cpu.js';
import { median } from './stats.js';

export interface LoadResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  /** Responses wrk counted as non-2xx/3xx, plus socket errors. */
  errors: number;
  /** CPU time the server (opts.pid and its children) spent per request, in µs; NaN when no pid was given. */
  cpuUs: number;
}

function ms(value: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!m) throw new Error(`unparsed wrk latency "${value}"`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * scale;
}

/**
 * Drives load with Debian's wrk from its own process (one thread, so the servers get the
 * other core), keep-alive connections, latency percentiles included.
 */
export function wrk(url: string, opts: { seconds: number; connections: number; headers?: Record<string, string>; script?: string; pid?: number }): LoadResult {
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (opts.script) args.push('-s', opts.script);
  args.push(url);
  const cpu0 = opts.pid === undefined ? NaN : cpuSeconds(opts.pid);
  const run = spawnSync('wrk', args, { encoding: 'utf8' });
  const cpu = opts.pid === undefined ? NaN : cpuSeconds(opts.pid) - cpu0;
  if (run.error) throw new Error('wrk is not installed: apt-get install -y wrk');
  const out = run.stdout;
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out);
  if (!rps || !p50 || !p99) throw new Error(`wrk output not understood:\n${out}${run.stderr}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = Number(non2xx?.[1] ?? 0) + (sock ? sock.slice(1).reduce((s, x) => s + Number(x), 0) : 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return { rps: Number(rps[1]), p50ms: ms(p50[1]!), p99ms: ms(p99[1]!), errors, cpuUs: (cpu * 1e6) / requests };
}

/** The average of several runs of the same load. */
export function meanLoad(runs: readonly LoadResult[]): LoadResult {
  const avg = (f: (r: LoadResult) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
  return { rps: avg((r) => r.rps), p50ms: avg((r) => r.p50ms), p99ms: avg((r) => r.p99ms), errors: avg((r) => r.errors), cpuUs: avg((r) => r.cpuUs) };
}

/** Each figure's median over several runs of the same load: one run disturbed by the machine moves it less than the mean. */
export function medianLoad(runs: readonly LoadResult[]): LoadResult {
  const m = (f: (r: LoadResult) => number) => median(runs.map(f));
  return { rps: m((r) => r.rps), p50ms: m((r) => r.p50ms), p99ms: m((r) => r.p99ms), errors: m((r) => r.errors), cpuUs: m((r) => r.cpuUs) };
}

/**
 * A ratio of two servers measured in alternating runs, taken round by round (each round's two runs
 * were a few seconds apart, so a slow minute of the machine falls on both), then its median and range.
 */
export function pairedRatio(a: readonly LoadResult[], b: readonly LoadResult[], f: (r: LoadResult) => number): { median: number; min: number; max: number } {
  const ratios = a.map((r, i) => f(r) / f(b[i]!));
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
