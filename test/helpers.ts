import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { loadHttpConfig, loadHubConfig, loadMcpConfig, type HttpConfig, type HubConfig, type McpConfig } from '../src/config.js';
import type { Business } from '../src/core/schema/business.js';
import type { Review } from '../src/core/schema/review.js';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/config.js';
import { startServer, type RunningServer } from '../src/http/server.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';

export const ROOT = new URL('..', import.meta.url).pathname;

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'reviewcast-test-'));
}

/** Which store the suite runs against: TEST_STORE=postgres, or SQLite by default. */
export const TEST_STORE = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let counter = 0;
let swept = false;

/** Test databases are dropped by a later run, once the process that made them is gone (never while in use). */
async function sweepStaleDatabases(admin: pg.Client): Promise<void> {
  swept = true;
  const names = (await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'rc_test_%'")).rows.map((r) => r.datname);
  for (const name of names) {
    const pid = Number(name.split('_')[2]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** A new, empty database for one test: a SQLite file, or a PostgreSQL database made for it. Returns its DATABASE_URL. */
export async function freshDatabase(kind: 'sqlite' | 'postgres' = TEST_STORE): Promise<string> {
  if (kind === 'sqlite') return join(tempDir(), 'test.db');
  const name = `rc_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  try {
    if (!swept) await sweepStaleDatabases(admin);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
}


export function openTestStore(database: string): Promise<Store> {
  return openStore(parseDatabaseUrl(database));
}

export interface TestService {
  url: string;
  store: Store;
  server: RunningServer;
  /** DATABASE_URL of its store, for the CLI or a second instance. */
  database: string;
  close(): Promise<void>;
}

/** A real server on a free port over a real SQLite file, seeded with the data given. */
export async function startTestService(
  seed: {
    business?: Business;
    reviews?: Review[];
    database?: string;
    hub?: Partial<HubConfig>;
    mcp?: Partial<McpConfig>;
    /** Tests get a per-client limit high enough never to interfere unless they set one. */
    http?: Partial<HttpConfig>;
    trustProxy?: boolean;
    revisionPollMs?: number;
    logger?: Logger;
  } = {},
): Promise<TestService> {
  const database = seed.database ?? (await freshDatabase());
  const store = await openTestStore(database);
  if (seed.reviews || seed.business) {
    await store.importReviews({ reviews: seed.reviews ?? [], business: seed.business, replace: false, dryRun: false });
  }
  const hub = { ...loadHubConfig({}), pollMs: 50, ...seed.hub };
  const logger = seed.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const server = await startServer({ store, logger, host: '127.0.0.1', port: 0, revisionPollMs: seed.revisionPollMs ?? 100, trustProxy: seed.trustProxy, hub, mcp: { ...loadMcpConfig({}), ...seed.mcp }, http: { ...loadHttpConfig({}), rateLimitPerMinute: 1_000_000, ...seed.http } });
  return {
    url: server.url,
    store,
    server,
    database,
    async close() {
      await server.close();
      await store.close();
    },
  };
}

/** A logger that keeps every line it writes, for tests that check what was logged. */
export function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in its own process (from source, through tsx). */
export function runCli(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns whether it did. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (its JSON log lines). */
  output(): string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | NodeJS.Signals>;
}

/** A port nothing listens on right now (the OS picks it; released before returning). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/** `reviewcast serve` in its own process (from source, through tsx), ready to answer; on `port` (a restart) or a free one. */
export async function startServeProcess(database: string, env: Record<string, string> = {}, port?: number): Promise<ServeProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | NodeJS.Signals>((r) => child.once('exit', (code, signal) => r(code ?? signal!)));
  const url = `http://127.0.0.1:${port}`;
  const ready = await eventually(async () => child.exitCode === null && (await fetch(`${url}/healthz`).then(async (r) => (await r.arrayBuffer(), r.ok), () => false)), 30_000, 100);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`serve did not start:\n${output}`);
  }
  return { url, child, output: () => output, exited };
}
