import { resolve } from 'node:path';
import { z } from 'zod';

/** Nothing else reads process.env: every setting is named, defaulted and validated here. */

export type StoreLocation = { kind: 'sqlite'; path: string };

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_DATABASE = './data/reviewcast.db';

export function parseDatabaseUrl(value: string | undefined): StoreLocation {
  const raw = value === undefined || value.trim() === '' ? DEFAULT_DATABASE : value.trim();
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    throw new ConfigError('DATABASE_URL', 'PostgreSQL is not supported by this build yet; use a SQLite path or sqlite: URL');
  }
  let path = raw;
  if (/^sqlite:/i.test(raw)) {
    // sqlite:relative/path, sqlite:/abs/path, sqlite:///abs/path
    path = raw.replace(/^sqlite:(\/\/)?/i, '');
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: URL has no file path');
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError('DATABASE_URL', `unsupported scheme in "${raw}"; use a file path or a sqlite: URL`);
  }
  return { kind: 'sqlite', path: path === ':memory:' ? path : resolve(path) };
}

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export interface ServeConfig {
  port: number;
  host: string;
  baseUrl: string;
  database: StoreLocation;
  logLevel: z.infer<typeof LogLevel>;
  /** How often the server checks the store for changes made by other processes. */
  revisionPollMs: number;
}

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function loadServeConfig(env: NodeJS.ProcessEnv = process.env): ServeConfig {
  const port = intVar(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  let baseUrl = env.BASE_URL?.trim() || `http://localhost:${port}`;
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ConfigError('BASE_URL', `not a URL: "${baseUrl}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError('BASE_URL', 'must be an http or https URL');
  if (parsed.search || parsed.hash) throw new ConfigError('BASE_URL', 'must not have a query or fragment');
  baseUrl = baseUrl.replace(/\/+$/, '');
  const level = LogLevel.safeParse(env.LOG_LEVEL?.trim() || 'info');
  if (!level.success) throw new ConfigError('LOG_LEVEL', `must be one of ${LogLevel.options.join(', ')}`);
  return {
    port,
    host,
    baseUrl,
    database: parseDatabaseUrl(env.DATABASE_URL),
    logLevel: level.data,
    revisionPollMs: intVar(env, 'REVISION_POLL_MS', 500, 50, 60_000),
  };
}

export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): StoreLocation {
  return parseDatabaseUrl(env.DATABASE_URL);
}

/** Progress bars only make sense for a person watching a terminal. */
export function progressWanted(): boolean {
  return Boolean(process.stderr.isTTY) && process.env.CI === undefined;
}
