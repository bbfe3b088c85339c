/** Reviews, the business profile and the data revision on SQLite, and the watch that signals another process's commit. */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { prepareImport, type ImportOutcome } from '../../core/import-plan.js';
import type { Business } from '../../core/schema/business.js';
import type { Review } from '../../core/schema/review.js';
import { importTime, type ImportRequest, type ReviewStore, type RevisionInfo, type StoredData } from '../store.js';
import type { Meta } from './meta.js';

const BATCH = 500;
/** File events come in bursts (a commit writes the WAL several times): one check per burst. */
const CHANGE_SETTLE_MS = 25;

/** Reviews fetched per step of a load: a few milliseconds of work. */
const LOAD_BATCH = 5000;

/** The revision, business profile and modification times read on `conn` (within the caller's transaction), with the reviews read there. */
function storedData(conn: Database.Database, reviews: Review[]): StoredData {
  const meta = conn.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const business = meta.get('business');
  const modified = new Map<string, string>();
  for (const row of conn.prepare('SELECT id, modified_at FROM reviews WHERE modified_at IS NOT NULL').iterate() as Iterable<{ id: string; modified_at: string }>) modified.set(row.id, row.modified_at);
  return {
    revision: { revision: Number(meta.get('revision')!.value), updated_at: meta.get('updated_at')!.value },
    business: business ? (JSON.parse(business.value) as Business) : null,
    reviews,
    modified,
  };
}

/** Everything a revision serves, read at once on `db` (within the caller's transaction). */
function readAll(db: Database.Database): StoredData {
  const reviews: Review[] = [];
  for (const json of db.prepare('SELECT json FROM reviews ORDER BY date DESC, id DESC').pluck().iterate() as Iterable<string>) reviews.push(JSON.parse(json) as Review);
  return storedData(db, reviews);
}

/** The review store over an open database; `stopWatching` closes the watches `subscribe` opened. */
export function sqliteReviewStore(db: Database.Database, path: string, { getMeta, setMeta }: Meta): ReviewStore & { stopWatching(): void } {
  const watchers = new Set<FSWatcher>();

  /** The connection loads read on (see load), opened on the first. */
  let reader: Database.Database | null = null;
  let loads: Promise<unknown> = Promise.resolve();

  const loadInBatches = async (): Promise<StoredData> => {
    if (!reader) {
      reader = new Database(path, { readonly: true });
      reader.pragma('busy_timeout = 10000');
    }
    const conn = reader;
    conn.exec('BEGIN');
    try {
      // Only the JSON is fetched: the keyset's date and id come from the parsed review (fetching them too cost a string each per row).
      const first = conn.prepare<[], string>(`SELECT json FROM reviews ORDER BY date DESC, id DESC LIMIT ${LOAD_BATCH}`).pluck();
      // A row value, so the index is searched from where the last batch ended (an OR scanned it from the start every batch).
      const after = conn.prepare<[string, string], string>(`SELECT json FROM reviews WHERE (date, id) < (?, ?) ORDER BY date DESC, id DESC LIMIT ${LOAD_BATCH}`).pluck();
      const reviews: Review[] = [];
      for (let rows = first.all(); ; ) {
        for (const json of rows) reviews.push(JSON.parse(json) as Review);
        if (rows.length < LOAD_BATCH) break;
        const last = reviews[reviews.length - 1]!;
        await yieldToLoop();
        rows = after.all(last.date, last.id);
      }
      const data = storedData(conn, reviews);
      conn.exec('COMMIT');
      return data;
    } catch (err) {
      if (conn.inTransaction) conn.exec('ROLLBACK');
      throw err;
    }
  };

  const readRevision = (): RevisionInfo => ({
    revision: Number(getMeta.get('revision')!.value),
    updated_at: getMeta.get('updated_at')!.value,
  });

  return {
    async getRevision(): Promise<RevisionInfo> {
      return readRevision();
    },

    /**
     * A file database is read on a connection of its own, in one read transaction, a batch of
     * reviews at a time with the event loop free between batches: at 100k reviews the read took
     * over half a second on the event loop, while the previous revision was still being served.
     * Loads take turns on that connection. An in-memory database has no second connection and is
     * read at once.
     */
    load(): Promise<StoredData> {
      if (path === ':memory:') return Promise.resolve(db.transaction(() => readAll(db))());
      const next = loads.then(() => loadInBatches(), () => loadInBatches());
      loads = next.catch(() => undefined);
      return next;
    },

    async importReviews(req: ImportRequest): Promise<ImportOutcome> {
      const run = db.transaction((): ImportOutcome => {
        const before = readRevision();
        const existing = new Map<string, string>();
        for (const row of db.prepare('SELECT id, json FROM reviews').iterate() as Iterable<{ id: string; json: string }>) {
          existing.set(row.id, row.json);
        }
        const { plan, businessJson, outcome, write } = prepareImport(existing, getMeta.get('business')?.value, req, before.revision);
        if (!write) return outcome;

        // The import's one time: the data's updated_at, and the modification time of each review it changed as a feed reader sees it.
        const now = importTime(before.updated_at);
        // A change a feed reader does not see (a new avatar address) keeps the time the review had.
        const upsert = db.prepare(
          'INSERT INTO reviews (id, date, rating, json, modified_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET date = excluded.date, rating = excluded.rating, json = excluded.json, modified_at = coalesce(excluded.modified_at, reviews.modified_at)',
        );
        const del = db.prepare('DELETE FROM reviews WHERE id = ?');
        const writes = [...plan.added, ...plan.updated];
        const total = writes.length + plan.removed.length;
        let done = 0;
        for (const r of writes) {
          upsert.run(r.id, r.date, r.rating, JSON.stringify(r), plan.retimed.has(r.id) ? now : null);
          if (++done % BATCH === 0) req.onProgress?.(done, total);
        }
        for (const id of plan.removed) {
          del.run(id);
          if (++done % BATCH === 0) req.onProgress?.(done, total);
        }
        req.onProgress?.(total, total);
        if (businessJson !== undefined) setMeta.run('business', businessJson);
        setMeta.run('revision', String(outcome.revision_after));
        setMeta.run('updated_at', now);
        return outcome;
      });
      // IMMEDIATE: take the write lock before reading, so two importers cannot plan against the same state.
      return run.immediate();
    },

    /**
     * SQLite cannot announce a commit, but another process's commit writes the database's files:
     * a watch on its folder (inotify on Linux) signals soon after, so an import is served without
     * waiting for the next poll. Our own writes signal too; the check they cause is one cheap read.
     * Where the folder cannot be watched, polling alone remains.
     */
    subscribe(onChange: () => void): () => void {
      if (path === ':memory:') return () => {};
      const name = basename(path);
      let pending: NodeJS.Timeout | null = null;
      let watcher: FSWatcher;
      try {
        watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
          if (pending || (file !== null && !file.startsWith(name))) return;
          pending = setTimeout(() => {
            pending = null;
            onChange();
          }, CHANGE_SETTLE_MS).unref();
        });
      } catch {
        return () => {};
      }
      const stop = () => {
        if (pending) clearTimeout(pending);
        watcher.close();
        watchers.delete(watcher);
      };
      watcher.on('error', stop);
      watchers.add(watcher);
      return stop;
    },

    stopWatching(): void {
      for (const w of watchers) w.close();
      watchers.clear();
      reader?.close();
      reader = null;
    },
  };
}
