import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { loadCostConfig, loadHttpConfig, loadHubConfig, loadMcpConfig, type CostConfig, type HttpConfig, type HubConfig, type McpConfig } from '../src/config.js';
import type { Business } from '../src/core/schema/business.js';
import type { Review } from '../src/core/schema/review.js';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/config.js';
import { startServer, type RunningServer } from '../src/http/server.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';

import { builtCli } from './serve.js';

export { builtCli, freePort, startServeProcess, type ServeProcess } from './serve.js';

export const ROOT = new URL('..', import.meta.url).pathname;

/**
 * A suite that needs a system tool this machine may lack (Chromium, PostgreSQL, nginx) is skipped
 * with `missing` as the reason: the skip option to pass to describe(). With REQUIRE_<TOOL>=1 (as
 * .ci/run sets) a missing tool fails the run instead of skipping.
 */
export function skipUnless(flag: 'REQUIRE_BROWSER' | 'REQUIRE_POSTGRES' | 'REQUIRE_NGINX', missing: string | undefined): string | false {
  if (missing === undefined) return false;
  if (process.env[flag] === '1') throw new Error(`${missing} (${flag}=1: this run requires it)`);
  return missing;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'reviewcast-test-'));
}

/**
 * Which store this test process runs against: SQLite, unless the file is a test/postgres/ mirror
 * (see runOnPostgres) or TEST_STORE=postgres asks for it when running one file by hand.
 */
export let TEST_STORE: 'sqlite' | 'postgres' = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why the PostgreSQL suites cannot run here (and how to enable them), or undefined when they can. */
export async function postgresMissing(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return `PostgreSQL is not reachable at ${PG_ADMIN} (${why}): start one there (trust auth, database test) or point TEST_PG_URL at one`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why the nginx suite cannot run here, or undefined when nginx is on the PATH. */
export function nginxMissing(): string | undefined {
  const probe = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  if (!probe.error && probe.status === 0) return undefined;
  return `nginx cannot be run (${probe.error ? (probe.error as NodeJS.ErrnoException).code : `exit ${probe.status}`}): install it with \`apt-get install nginx-light\``;
}

/**
 * The body of a test/postgres/ mirror: runs the suite of the same name in test/ again, on
 * PostgreSQL, so one `npm test` covers both stores; skipped with the reason when PostgreSQL is
 * not reachable (a failure with REQUIRE_POSTGRES=1).
 */
export async function runOnPostgres(mirror: string): Promise<void> {
  const name = basename(fileURLToPath(mirror));
  const skip = skipUnless('REQUIRE_POSTGRES', await postgresMissing());
  if (skip) {
    it(`${name} on PostgreSQL`, { skip }, () => undefined);
    return;
  }
  TEST_STORE = 'postgres';
  describe('on PostgreSQL', async () => {
    await import(new URL(`../${name}`, mirror).href);
  });
}
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
    /** Likewise a budget of answers (RATE_LIMIT_COST_KB) that never interferes unless set. */
    cost?: Partial<CostConfig>;
    trustProxy?: boolean;
    revisionPollMs?: number;
    logger?: Logger;
    /** BASE_URL; by default the address it listens on. */
    baseUrl?: string;
  } = {},
): Promise<TestService> {
  const database = seed.database ?? (await freshDatabase());
  const store = await openTestStore(database);
  if (seed.reviews || seed.business) {
    await store.importReviews({ reviews: seed.reviews ?? [], business: seed.business, replace: false, dryRun: false });
  }
  const hub = { ...loadHubConfig({}), pollMs: 50, ...seed.hub };
  const logger = seed.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const server = await startServer({ store, logger, host: '127.0.0.1', port: 0, baseUrl: seed.baseUrl, revisionPollMs: seed.revisionPollMs ?? 100, trustProxy: seed.trustProxy, hub, mcp: { ...loadMcpConfig({}), ...seed.mcp }, http: { ...loadHttpConfig({}), rateLimitPerMinute: 1_000_000, ...seed.http }, cost: { ...loadCostConfig({}), rateLimitCostKb: 1_000_000_000, ...seed.cost } });
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

/**
 * Runs the real CLI in its own process: the built one (builtCli), or from source through tsx
 * where a test reads what it kept with this process's code (a kept document is named for the
 * build that made it, and src/ through tsx is another build than dist/).
 */
export function runCli(args: string[], env: Record<string, string> = {}, stdin?: string, from: 'built' | 'source' = 'built'): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(from === 'built' ? [builtCli()] : ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')]), ...args], {
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

/**
 * The CLI with `file` piped to its stdin through a shell, as an operator would (`cat file |
 * reviewcast import /dev/stdin`): spawn's own stdin is a socket, which /dev/stdin cannot open.
 */
export function pipedCli(file: string, args: string[], env: Record<string, string>): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', 'node="$1" cli="$2"; shift 2; cat "$0" | "$node" "$cli" "$@"', file, process.execPath, builtCli(), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
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
