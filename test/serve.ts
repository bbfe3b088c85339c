// Starting a `reviewcast serve` process and the pieces around it (a free port, readiness), shared by the tests and the benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUILT = fileURLToPath(new URL('../bin/reviewcast.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let fresh = false;

/**
 * The built CLI (bin/reviewcast.js on dist/), which the tests run as an operator does: through
 * tsx every run took a second or two more. `npm test` builds first (pretest); a test run by hand
 * after src/ changed without a build is refused here rather than testing the old code.
 */
export function builtCli(): string {
  if (fresh) return BUILT;
  const built = statSync(join(ROOT, 'dist/cli/main.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const src = join(ROOT, 'src');
  // The files the build reads (an editor's lock or swap file beside them is not one, and may dangle).
  const changed = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|json)$/.test(f))
    .find((f) => (statSync(join(src, f), { throwIfNoEntry: false })?.mtimeMs ?? 0) > built);
  if (changed !== undefined) throw new Error(`dist/ is older than src/${changed}: run npm run build (npm test does)`);
  fresh = true;
  return BUILT;
}

/** A port nothing listens on right now (the OS picks it; released before returning). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/** Polls `url` until it answers 2xx; throws if `child` exits first, or once `timeoutMs` has passed. */
export async function waitUntilServing(url: string, child: ChildProcess, timeoutMs = Infinity): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode} before answering ${url}`);
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
    if (await fetch(url).then(async (r) => (await r.arrayBuffer(), r.ok), () => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ServeOptions {
  /** Environment on top of this process's and the address variables (LOG_LEVEL defaults to info). */
  env?: Record<string, string>;
  /** The port to listen on (a restart at the same address); a free one otherwise. */
  port?: number;
  /** Another checkout's root whose bin/reviewcast.js to run (a benchmark's "before"); this one's otherwise. */
  root?: string;
  /** Passes the server's output through to this process's instead of keeping it for output(). */
  passOutput?: boolean;
  /** Ready once this path answers 2xx (default /healthz). */
  readyPath?: string;
  /** Give up (and kill the process) after this long; default 30 s. */
  timeoutMs?: number;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (its log lines); empty with passOutput. */
  output(): string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | NodeJS.Signals>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | NodeJS.Signals>;
}

/** `reviewcast serve` over `database` in its own process, ready to answer. */
export async function startServeProcess(database: string, opts: ServeOptions = {}): Promise<ServeProcess> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const built = opts.root === undefined ? builtCli() : `${opts.root}/bin/reviewcast.js`;
  const child = spawn(process.execPath, [built, 'serve'], {
    cwd: opts.root ?? ROOT,
    env: { ...process.env, DATABASE_URL: database, PORT: String(port), HOST: '127.0.0.1', BASE_URL: url, LOG_LEVEL: 'info', ...opts.env },
    stdio: ['ignore', opts.passOutput ? 'inherit' : 'pipe', opts.passOutput ? 'inherit' : 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | NodeJS.Signals>((r) => child.once('exit', (code, signal) => r(code ?? signal!)));
  // A test or benchmark that throws must not leave its server running.
  const orphan = (): void => void child.kill('SIGKILL');
  process.once('exit', orphan);
  void exited.then(() => process.off('exit', orphan));
  try {
    await waitUntilServing(`${url}${opts.readyPath ?? '/healthz'}`, child, opts.timeoutMs ?? 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`serve did not start: ${(err as Error).message}\n${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    exited,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
