/** The Store on SQLite (one file, WAL): opens and migrates the database and composes the store of each concern over it. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../store.js';
import { sqliteHubStore } from './hub.js';
import { sqliteMcpSessionStore } from './mcp-sessions.js';
import { sqliteMeta } from './meta.js';
import { sqliteMigrations } from './migrations.js';
import { sqliteRateLimitStore } from './rate-limits.js';
import { sqliteReviewStore } from './reviews.js';
import { sqliteSettingsStore } from './settings.js';

function migrate(db: Database.Database): void {
  const apply = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > sqliteMigrations.length) {
      throw new Error(`database schema version ${version} is newer than this reviewcast (${sqliteMigrations.length}); upgrade reviewcast`);
    }
    for (let v = version; v < sqliteMigrations.length; v++) db.exec(sqliteMigrations[v]!);
    db.pragma(`user_version = ${sqliteMigrations.length}`);
  });
  apply.immediate();
}

export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // The CLI and the server share the file: wait for a writer instead of failing at once.
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  const meta = sqliteMeta(db);
  const { stopWatching, ...reviews } = sqliteReviewStore(db, path, meta);
  return {
    ...reviews,
    ...sqliteHubStore(db),
    ...sqliteMcpSessionStore(db),
    ...sqliteRateLimitStore(db),
    ...sqliteSettingsStore(db, meta),
    async close() {
      stopWatching();
      db.close();
    },
  };
}
