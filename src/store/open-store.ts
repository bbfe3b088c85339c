import type { StoreLocation } from '../config.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export async function openStore(location: StoreLocation): Promise<Store> {
  switch (location.kind) {
    case 'sqlite':
      return new SqliteStore(location.path);
    case 'postgres':
      return PostgresStore.open(location.url);
  }
}
