/** Opens the store a database location names: SQLite for a file path, PostgreSQL for a postgres:// URL. */
import type { StoreLocation } from '../config.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
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

/** Opens (and migrates) the store; any failure is a StoreOpenError naming where and why. */
export async function openStore(location: StoreLocation): Promise<Store> {
  try {
    switch (location.kind) {
      case 'sqlite':
        return openSqliteStore(location.path);
      case 'postgres':
        return await openPostgresStore(location.url);
    }
  } catch (err) {
    throw new StoreOpenError(location, err);
  }
}
