/** Opens the store a database location names: SQLite for a file path, PostgreSQL for a postgres:// URL. */
import type { StoreLocation } from '../config.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export async function openStore(location: StoreLocation): Promise<Store> {
  switch (location.kind) {
    case 'sqlite':
      return openSqliteStore(location.path);
    case 'postgres':
      return openPostgresStore(location.url);
  }
}
