import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadHubConfig, loadMcpConfig, type HubConfig, type McpConfig } from '../src/config.js';
import type { Business } from '../src/core/schema/business.js';
import type { Review } from '../src/core/schema/review.js';
import { startServer, type RunningServer } from '../src/http/server.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';

export const ROOT = new URL('..', import.meta.url).pathname;

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'reviewcast-test-'));
}

export interface TestService {
  url: string;
  store: Store;
  server: RunningServer;
  dbPath: string;
  close(): Promise<void>;
}

/** A real server on a free port over a real SQLite file, seeded with the data given. */
export async function startTestService(
  seed: { business?: Business; reviews?: Review[]; dbPath?: string; hub?: Partial<HubConfig>; mcp?: Partial<McpConfig> } = {},
): Promise<TestService> {
  const dbPath = seed.dbPath ?? join(tempDir(), 'test.db');
  const store = new SqliteStore(dbPath);
  if (seed.reviews || seed.business) {
    await store.importReviews({ reviews: seed.reviews ?? [], business: seed.business, replace: false, dryRun: false });
  }
  const hub = { ...loadHubConfig({}), pollMs: 50, ...seed.hub };
  const server = await startServer({ store, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), host: '127.0.0.1', port: 0, revisionPollMs: 100, hub, mcp: { ...loadMcpConfig({}), ...seed.mcp } });
  return {
    url: server.url,
    store,
    server,
    dbPath,
    async close() {
      await server.close();
      await store.close();
    },
  };
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
