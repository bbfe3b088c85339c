/** A store that can not be reached: which errors say so, and the one warning an outage is logged with. */
import type { Logger } from 'pino';
import { STILL_FAILING_MS } from '../logger.js';

/** What a request that needed the store is told to wait before it tries again (Retry-After, seconds). */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** Node's socket errors: the database's host refused, dropped or never answered the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a database that can not serve: connection exceptions (class 08), the
 * server shutting down or starting (57P01-57P03), out of connections (53300), the database gone (3D000).
 */
const PG_UNREACHABLE = /^(08...|57P0[123]|53300|3D000)$/;

/** pg's own words for a connection that ended under a query (it gives them no code). */
const PG_CONNECTION_ENDED = /^(Connection terminated|Client has encountered a connection error and is not queryable)/;

/**
 * SQLite result codes (and their extended forms) of a file that can not be read or written: not
 * there or not openable, not a database, corrupt, an I/O error, a full disk, permissions, or
 * locked by another process past the busy timeout. SQL errors and constraint failures are bugs, not these.
 */
const SQLITE_UNREACHABLE = /^SQLITE_(CANTOPEN|NOTADB|CORRUPT|IOERR|FULL|PERM|READONLY|BUSY)(_|$)/;

/**
 * Whether an error says the store can not be reached or read, rather than that the service is at
 * fault. A PostgreSQL error of severity FATAL or PANIC ends its session, so it is one whatever its
 * SQLSTATE (a database refusing connections answers 55000 FATAL). An error that wraps another
 * (`cause`, AggregateError) is judged by what it wraps.
 */
export function storeUnreachable(err: unknown): boolean {
  return unreachable(err, 0);
}

/** Wrappers are followed this deep at most (a cause may, by mistake, lead back to itself). */
const MAX_DEPTH = 3;

function unreachable(err: unknown, depth: number): boolean {
  if (typeof err !== 'object' || err === null || depth > MAX_DEPTH) return false;
  const e = err as { code?: unknown; severity?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || SQLITE_UNREACHABLE.test(code)) return true;
  // pg's DatabaseError: a SQLSTATE and the severity the server gave it.
  if (typeof e.severity === 'string' && /^[0-9A-Z]{5}$/.test(code) && (PG_UNREACHABLE.test(code) || e.severity === 'FATAL' || e.severity === 'PANIC')) return true;
  if (code === '' && typeof e.message === 'string' && PG_CONNECTION_ENDED.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => unreachable(inner, depth + 1))) return true;
  return unreachable(e.cause, depth + 1);
}

/** Causes remembered at once; an outage has one or two (refused, then gone), so more are forgotten together. */
const MAX_CAUSES = 16;

/**
 * The log of a store outage as requests meet it: one warning when they start failing on it (its
 * cause, no stack: nothing in the service is broken), then at most one every five minutes per
 * cause while it lasts, counting the failures since; not an error with a stack for every request
 * refused. Unlike failureEpisodes (tasks on a timer), no line says it is over: a request that
 * succeeds may not have needed the store at all.
 */
export class StoreOutage {
  /** Each cause told, and when. */
  private readonly told = new Map<string, number>();
  private failures = 0;

  constructor(private readonly logger: Logger) {}

  report(err: unknown): void {
    this.failures++;
    const e = err as { code?: unknown; message?: unknown };
    const cause = `${String(e.code ?? '')} ${String(e.message ?? err)}`.trim();
    const now = Date.now();
    const last = this.told.get(cause);
    if (last !== undefined && now - last < STILL_FAILING_MS) return;
    if (this.told.size >= MAX_CAUSES) this.told.clear();
    this.told.set(cause, now);
    this.logger.warn(
      { cause, failures: this.failures },
      `the store can not be reached: requests that need it (MCP, the WebSub hub) are answered 503 store_unavailable, retry after ${STORE_RETRY_AFTER_SECONDS} s`,
    );
    this.failures = 0;
  }
}
