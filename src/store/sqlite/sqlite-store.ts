/** The Store on SQLite (one file, WAL): opens and migrates the database and composes the store of each concern over it. */
import { closeSync, mkdirSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../store.js';
import { sqliteHubStore } from './hub.js';
import { sqliteKeptStore } from './kept.js';
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

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0');

/**
 * The file's header, read from disk, and a query. The query alone is not enough: it is answered
 * from the WAL and the page cache, so it succeeds while the file under it has been overwritten.
 * And the file at the path must be the one opened: one removed, or put in its place (a backup
 * restored with mv, a new database made by an import after a removal), is not what this process
 * reads and serves.
 */
function checkHealth(db: Database.Database, path: string, opened: Stats | undefined): void {
  if (path !== ':memory:' && opened) {
    const now = statSync(path, { throwIfNoEntry: false });
    if (!now) throw new Error(`${path} has been removed since the service opened it; restart the service once a database is back in its place`);
    if (now.ino !== opened.ino || now.dev !== opened.dev) throw new Error(`${path} is another file than the one the service opened (replaced or restored while it ran); restart the service to serve it`);
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
    if (!head.equals(SQLITE_MAGIC)) throw new Error(`${path} is not a SQLite database any more (its header is not "SQLite format 3")`);
  }
  db.prepare("SELECT value FROM meta WHERE key = 'revision'").get();
}

export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  const opened = path === ':memory:' ? undefined : statSync(path);
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
    ...sqliteKeptStore(db),
    async checkHealth() {
      checkHealth(db, path, opened);
    },
    async close() {
      stopWatching();
      db.close();
    },
  };
}
