/**
 * Append-only: the schema version is the number of entries applied (PRAGMA user_version).
 * Never edit or reorder an entry that has shipped; add a new one.
 */
export const sqliteMigrations: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   INSERT INTO meta (key, value) VALUES ('revision', '0'), ('updated_at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
   CREATE TABLE reviews (
     id TEXT PRIMARY KEY,
     date TEXT NOT NULL,
     rating INTEGER NOT NULL,
     json TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX reviews_by_date ON reviews (date DESC, id DESC);`,
];
