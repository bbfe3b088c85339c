/** The meta table on SQLite: the revision, the business profile and settings, one key-value row each. */
import type Database from 'better-sqlite3';

export interface Meta {
  getMeta: Database.Statement<[string], { value: string }>;
  setMeta: Database.Statement<[string, string]>;
}

export function sqliteMeta(db: Database.Database): Meta {
  return {
    getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
  };
}
