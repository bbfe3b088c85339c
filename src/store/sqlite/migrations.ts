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
  // WebSub hub: subscriptions, pending verifications, the delivery outbox and the last announced body of each topic.
  `CREATE TABLE hub_subscriptions (
     callback TEXT NOT NULL,
     topic TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     failures INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (callback, topic)
   );
   CREATE INDEX hub_subscriptions_by_topic ON hub_subscriptions (topic, expires_at);
   CREATE INDEX hub_subscriptions_by_host ON hub_subscriptions (callback_host);
   CREATE TABLE hub_verifications (
     id INTEGER PRIMARY KEY,
     callback TEXT NOT NULL,
     topic TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
     lease_seconds INTEGER NOT NULL,
     secret TEXT,
     due_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX hub_verifications_due ON hub_verifications (due_at);
   CREATE TABLE hub_deliveries (
     id INTEGER PRIMARY KEY,
     callback TEXT NOT NULL,
     topic TEXT NOT NULL,
     seq INTEGER NOT NULL DEFAULT 1,
     due_at INTEGER NOT NULL,
     UNIQUE (callback, topic)
   );
   CREATE INDEX hub_deliveries_due ON hub_deliveries (due_at);
   CREATE TABLE hub_topics (topic TEXT PRIMARY KEY, etag TEXT NOT NULL) WITHOUT ROWID;`,
  // MCP sessions: the id is a signed token; this row tracks idleness and DELETE across replicas.
  `CREATE TABLE mcp_sessions (
     id TEXT PRIMARY KEY,
     created_at INTEGER NOT NULL,
     last_seen_at INTEGER NOT NULL,
     ended_at INTEGER
   ) WITHOUT ROWID;`,
  // The revision each topic body was announced at: a replica still on an older revision must not announce over a newer one.
  `ALTER TABLE hub_topics ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;`,
  // Fixed-window request counters shared by every process on the database (hub rate limit).
  `CREATE TABLE rate_limits (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID;`,
  // Reviews gain source_id (the id in the system they came from); stored ones had none. Appended
  // last, as canonicalReview writes it; the revision moves (when there are reviews) because their JSON changed.
  `UPDATE reviews SET json = substr(json, 1, length(json) - 1) || ',"source_id":null}';
   UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'revision' AND EXISTS (SELECT 1 FROM reviews);`,
  // Hub caps per requesting client: each subscription and pending request records who asked for it
  // ('' for those made before; they count towards the per-host and global caps only).
  `ALTER TABLE hub_subscriptions ADD COLUMN client TEXT NOT NULL DEFAULT '';
   ALTER TABLE hub_verifications ADD COLUMN client TEXT NOT NULL DEFAULT '';
   CREATE INDEX hub_subscriptions_by_client ON hub_subscriptions (client);
   CREATE INDEX hub_verifications_by_client ON hub_verifications (client);`,
  // What a revision computed for its insights (gzipped JSON), keyed by revision and analyser version; one row, the newest.
  `CREATE TABLE insights_documents (revision INTEGER NOT NULL, analyser TEXT NOT NULL, document BLOB NOT NULL, PRIMARY KEY (revision, analyser)) WITHOUT ROWID;`,
  // What a revision made, kept by name (insights, published bytes, compressed forms); replaces insights_documents, whose entries are made again.
  `DROP TABLE insights_documents;
   CREATE TABLE kept (revision INTEGER NOT NULL, name TEXT NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (revision, name)) WITHOUT ROWID;`,
  // When an import last changed what a feed reader sees of a review (changedForReaders): a feed entry's updated time moves with it. Null for a review as first
  // imported; the few set are read through a partial index, not a scan of every review's row.
  `ALTER TABLE reviews ADD COLUMN modified_at TEXT;
   CREATE INDEX reviews_modified ON reviews (id, modified_at) WHERE modified_at IS NOT NULL;`,
];
