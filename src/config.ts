/** Configuration from the environment, validated: the only reader of process.env. */
import { resolve } from 'node:path';
import { z } from 'zod';
import type { LookupAddress } from 'node:dns';

/** Nothing else reads process.env: every setting is named, defaulted and validated here. */

export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

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
    if (!URL.canParse(raw)) throw new ConfigError('DATABASE_URL', 'not a valid postgres:// URL');
    return { kind: 'postgres', url: raw };
  }
  let path = raw;
  if (/^sqlite:/i.test(raw)) {
    // sqlite:relative/path, sqlite:/abs/path, sqlite:///abs/path
    path = raw.replace(/^sqlite:(\/\/)?/i, '');
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: URL has no file path');
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError('DATABASE_URL', `unsupported scheme in "${raw}"; use a file path, a sqlite: URL or a postgres:// (or postgresql://) URL`);
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
  /** Behind a load balancer: take the client address from X-Forwarded-For (rate limits are per client). */
  trustProxy: boolean;
  hub: HubConfig;
  mcp: McpConfig;
  http: HttpConfig;
  cost: CostConfig;
}

export interface HttpConfig {
  /** Requests per client per minute, every endpoint together (the hub has its own, lower limit too). */
  rateLimitPerMinute: number;
  /** A client must send its whole request head within this (slowloris). */
  headersTimeoutMs: number;
  /** ... and its whole request within this. */
  requestTimeoutMs: number;
  /** On SIGTERM, in-flight requests and deliveries get this long before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** The CSP frame-ancestors sources of /embed (the widget's iframe page): who may frame it. Every other page refuses framing. */
  embedFrameAncestors: string;
}

/** One CSP source expression frame-ancestors takes: *, 'self', a scheme (https:) or a host source (https://*.example.com:8443). */
const FRAME_SOURCE = /^(\*|'self'|[a-z][a-z0-9+.-]*:|([a-z][a-z0-9+.-]*:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,]*)?)$/i;

export function parseFrameAncestors(raw: string | undefined): string {
  const value = raw?.trim() || '*';
  const sources = value.split(/\s+/);
  if (value === "'none'") return value;
  const bad = sources.find((s) => !FRAME_SOURCE.test(s));
  if (bad !== undefined) throw new ConfigError('EMBED_FRAME_ANCESTORS', `"${bad}" is not a frame-ancestors source; give space-separated origins like https://www.example.com, or *, 'self' or 'none'`);
  return sources.join(' ');
}

export function loadHttpConfig(env: NodeJS.ProcessEnv = process.env): HttpConfig {
  const headersTimeoutMs = intVar(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 300_000);
  return {
    rateLimitPerMinute: intVar(env, 'RATE_LIMIT_PER_MINUTE', 1200, 1, 100_000_000),
    headersTimeoutMs,
    requestTimeoutMs: intVar(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, headersTimeoutMs, 600_000),
    shutdownTimeoutMs: intVar(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    embedFrameAncestors: parseFrameAncestors(env.EMBED_FRAME_ANCESTORS),
  };
}

export interface McpConfig {
  /** A session unused this long ends. */
  sessionIdleSeconds: number;
  /** No session outlives this, used or not. */
  sessionMaxSeconds: number;
  /** Origins besides BASE_URL's own that may call /mcp from a browser. */
  allowedOrigins: string[];
  /** Live sessions at most; an initialize beyond it is refused until some end. */
  maxSessions: number;
}

/** A session's last use is written back at most this often, so idleness is known to within it. */
export const MCP_SESSION_TOUCH_SECONDS = 15;

export function loadMcpConfig(env: NodeJS.ProcessEnv = process.env): McpConfig {
  const origins = (env.MCP_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of origins) {
    if (!URL.canParse(o) || new URL(o).origin !== o) throw new ConfigError('MCP_ALLOWED_ORIGINS', `"${o}" is not an origin like https://app.example`);
  }
  const sessionIdleSeconds = intVar(env, 'MCP_SESSION_IDLE_SECONDS', 1800, 0, 31_536_000);
  if (sessionIdleSeconds < MCP_SESSION_TOUCH_SECONDS) {
    // Shorter would end sessions in use: a use is recorded only every MCP_SESSION_TOUCH_SECONDS.
    throw new ConfigError('MCP_SESSION_IDLE_SECONDS', `must be at least ${MCP_SESSION_TOUCH_SECONDS} (a session's use is recorded every ${MCP_SESSION_TOUCH_SECONDS} s, so a shorter idle time would end sessions in use), got ${sessionIdleSeconds}`);
  }
  return {
    sessionIdleSeconds,
    sessionMaxSeconds: intVar(env, 'MCP_SESSION_MAX_SECONDS', 86_400, sessionIdleSeconds, 31_536_000),
    allowedOrigins: origins,
    maxSessions: intVar(env, 'MCP_MAX_SESSIONS', 10_000, 1, 10_000_000),
  };
}

/** A dns.lookup-shaped resolver for callback hosts (all addresses). */
export type Resolver = (hostname: string, done: (err: NodeJS.ErrnoException | null, addresses?: LookupAddress[]) => void) => void;

export interface HubConfig {
  leaseDefaultSeconds: number;
  leaseMinSeconds: number;
  leaseMaxSeconds: number;
  /** Delay before each retry of a failed delivery. */
  retryDelaysMs: number[];
  /** Lifts the public-address rule for callbacks: local testing only. */
  allowPrivateCallbacks: boolean;
  maxSubscriptionsPerHost: number;
  /** Cap on subscriptions and pending requests per requesting client (an IPv4 address or an IPv6 /64). */
  maxSubscriptionsPerClient: number;
  /** Cap on subscriptions and pending requests in all. */
  maxSubscriptions: number;
  /** Hub requests per client IP per minute. */
  rateLimitPerMinute: number;
  timeoutMs: number;
  /** How often the hub looks for due verifications and deliveries (also woken by changes). */
  pollMs: number;
  /** How long a replica holds a claimed verification or delivery before another may take it over. */
  claimMs: number;
  /** Extra CA certificates (PEM) trusted for HTTPS callbacks. */
  ca?: string[];
  /** Replaces the system resolver for callback hosts (tests of the address guard; not read from the environment). */
  resolver?: Resolver;
}

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A public origin as the service writes it into links: an http(s) URL without query, fragment or trailing slash. */
function checkedBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ConfigError('BASE_URL', `not a URL: "${baseUrl}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError('BASE_URL', 'must be an http or https URL');
  if (parsed.search || parsed.hash) throw new ConfigError('BASE_URL', 'must not have a query or fragment');
  return baseUrl.replace(/\/+$/, '');
}

/** BASE_URL when it is set (the import makes the documents that name it), checked as the service checks it. */
export function loadBaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.BASE_URL?.trim();
  return raw ? checkedBaseUrl(raw) : undefined;
}

export function loadServeConfig(env: NodeJS.ProcessEnv = process.env): ServeConfig {
  const port = intVar(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const baseUrl = loadBaseUrl(env) ?? checkedBaseUrl(`http://localhost:${port}`);
  const level = LogLevel.safeParse(env.LOG_LEVEL?.trim() || 'info');
  if (!level.success) throw new ConfigError('LOG_LEVEL', `must be one of ${LogLevel.options.join(', ')}`);
  return {
    port,
    host,
    baseUrl,
    database: parseDatabaseUrl(env.DATABASE_URL),
    logLevel: level.data,
    revisionPollMs: intVar(env, 'REVISION_POLL_MS', 500, 50, 60_000),
    trustProxy: boolVar(env, 'TRUST_PROXY'),
    hub: loadHubConfig(env),
    mcp: loadMcpConfig(env),
    http: loadHttpConfig(env),
    cost: loadCostConfig(env),
  };
}

function boolVar(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

export function loadHubConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const leaseMinSeconds = intVar(env, 'HUB_LEASE_MIN_SECONDS', 3600, 1, 31_536_000);
  const leaseMaxSeconds = intVar(env, 'HUB_LEASE_MAX_SECONDS', 30 * 86_400, leaseMinSeconds, 31_536_000);
  const leaseDefaultSeconds = intVar(env, 'HUB_LEASE_DEFAULT_SECONDS', Math.min(10 * 86_400, leaseMaxSeconds), leaseMinSeconds, leaseMaxSeconds);
  const delaysRaw = env.HUB_RETRY_DELAYS_MS?.trim() || '30000,300000';
  if (!/^\d+(,\d+)*$/.test(delaysRaw)) throw new ConfigError('HUB_RETRY_DELAYS_MS', `must be comma-separated milliseconds, e.g. 30000,300000; got "${delaysRaw}"`);
  return {
    leaseDefaultSeconds,
    leaseMinSeconds,
    leaseMaxSeconds,
    retryDelaysMs: delaysRaw.split(',').map(Number),
    allowPrivateCallbacks: boolVar(env, 'HUB_ALLOW_PRIVATE_CALLBACKS'),
    maxSubscriptionsPerHost: intVar(env, 'HUB_MAX_SUBSCRIPTIONS_PER_HOST', 100, 1, 1_000_000),
    maxSubscriptionsPerClient: intVar(env, 'HUB_MAX_SUBSCRIPTIONS_PER_CLIENT', 100, 1, 1_000_000),
    maxSubscriptions: intVar(env, 'HUB_MAX_SUBSCRIPTIONS', 10_000, 1, 10_000_000),
    rateLimitPerMinute: intVar(env, 'HUB_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    timeoutMs: intVar(env, 'HUB_TIMEOUT_MS', 10_000, 100, 120_000),
    pollMs: intVar(env, 'HUB_POLL_MS', 1000, 10, 60_000),
    claimMs: intVar(env, 'HUB_CLAIM_MS', 60_000, 100, 3_600_000),
  };
}

export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): StoreLocation {
  return parseDatabaseUrl(env.DATABASE_URL);
}

/** What a client may cost in memory and CPU: the body caches' budgets, the cost-weighted rate limit, compression. */
export interface CostConfig {
  /** Bytes of whole documents kept (feeds, reviews.json, insights, pages, MCP resources). */
  documentCacheBytes: number;
  /** Bytes of per-request answers kept (since-dates, per-query pages), apart so a flood of them evicts no document. */
  answerCacheBytes: number;
  /** Kilobytes of answers per client per minute, counted in the store so replicas share it. */
  rateLimitCostKb: number;
  /** Large bodies compressed at once, off the event loop. */
  compressConcurrency: number;
}

export function loadCostConfig(env: NodeJS.ProcessEnv = process.env): CostConfig {
  const mb = 1024 * 1024;
  return {
    documentCacheBytes: intVar(env, 'CACHE_DOCUMENT_MB', 160, 1, 1_000_000) * mb,
    answerCacheBytes: intVar(env, 'CACHE_ANSWER_MB', 32, 1, 1_000_000) * mb,
    rateLimitCostKb: intVar(env, 'RATE_LIMIT_COST_KB', 65_536, 1, 1_000_000_000),
    compressConcurrency: intVar(env, 'COMPRESS_CONCURRENCY', 1, 1, 64),
  };
}

/** Progress bars only make sense for a person watching a terminal. */
export function progressWanted(): boolean {
  return Boolean(process.stderr.isTTY) && process.env.CI === undefined;
}
