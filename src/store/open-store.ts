/** Opens the store a database location names: SQLite for a file path, PostgreSQL for a postgres:// URL. */
import type { StoreLocation } from '../config.js';
import type { Store } from './store.js';

/** The store could not be opened (or first read): a corrupt or read-only file, an unreachable database. */
export class StoreOpenError extends Error {
  constructor(
    readonly location: StoreLocation,
    override readonly cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code || cause.name : String(cause);
    super(`cannot open the store at DATABASE_URL=${describeLocation(location)}: ${why}`);
    this.name = 'StoreOpenError';
  }
}

/** Where the store is, as safe to print: a PostgreSQL password is never shown. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return location.path;
  const url = new URL(location.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * Opens (and migrates) the store; any failure is a StoreOpenError naming where and why. Only the
 * driver of the store named is loaded (a start-up on SQLite does not load pg, nor one on PostgreSQL better-sqlite3).
 */
export async function openStore(location: StoreLocation): Promise<Store> {
  try {
    switch (location.kind) {
      case 'sqlite':
        return (await import('./sqlite/sqlite-store.js')).openSqliteStore(location.path);
      case 'postgres':
        return await (await import('./postgres/postgres-store.js')).openPostgresStore(location.url);
    }
  } catch (err) {
    throw new StoreOpenError(location, err);
  }
}
