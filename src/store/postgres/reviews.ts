/** Reviews, the business profile and the data revision on PostgreSQL; every new revision is announced with NOTIFY. */
import pg from 'pg';
import { prepareImport, type ImportOutcome } from '../../core/import-plan.js';
import type { Business } from '../../core/schema/business.js';
import type { Review } from '../../core/schema/review.js';
import { importTime, type ImportRequest, type ReviewStore, type RevisionInfo, type StoredData } from '../store.js';
import { APPLICATION_NAME, meta, setMeta, tx, withClient } from './sql.js';

const CHANNEL = 'reviewcast_revision';
/** An arbitrary constant naming the advisory lock importers take turns on. */
const IMPORT_LOCK = 726_115_002;
const BATCH = 1000;

/** The review store over a pool; `stopListening` ends the LISTEN connection `subscribe` opened. */
/** Reviews fetched per round trip while loading: a few megabytes of JSON. */
const LOAD_BATCH = 5000;

export function postgresReviewStore(pool: pg.Pool, url: string): ReviewStore & { stopListening(): Promise<void> } {
  let listener: pg.Client | null = null;
  const watchers = new Set<() => void>();
  let closed = false;

  const notifyWatchers = (): void => {
    for (const w of watchers) w();
  };

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({ connectionString: url, fallback_application_name: `${APPLICATION_NAME} (listening for changes)` });
    listener = client;
    client.on('notification', notifyWatchers);
    let down = false;
    client.on('error', () => {
      // Once per connection (a failed LISTEN can also raise one): polling covers changes while it is down.
      if (down) return;
      down = true;
      listener = null;
      client.end().catch(() => {});
      setTimeout(() => void listen(), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch {
      client.emit('error', new Error('listen failed'));
      return;
    }
    // A change committed while no listener was up (before the first connect, or between an error
    // and this reconnect) sent its NOTIFY to nobody: check once now rather than at the next poll.
    notifyWatchers();
  }

  return {
    async getRevision(): Promise<RevisionInfo> {
      const rows = (await pool.query<{ key: string; value: string }>("SELECT key, value FROM meta WHERE key IN ('revision', 'updated_at')")).rows;
      const get = (k: string) => rows.find((r) => r.key === k)!.value;
      return { revision: Number(get('revision')), updated_at: get('updated_at') };
    },

    async load(): Promise<StoredData> {
      return withClient(pool, async (c) => {
        try {
          // One snapshot for all four reads.
          await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
          const meta = (await c.query<{ key: string; value: string }>('SELECT key, value FROM meta')).rows;
          // In batches through a cursor: each batch's JSON texts are garbage once parsed, not all held
          // at once, and the event loop runs between batches (the previous revision is still served).
          await c.query('DECLARE reviews_in_order NO SCROLL CURSOR FOR SELECT json FROM reviews ORDER BY date DESC, id DESC');
          const reviews: Review[] = [];
          for (;;) {
            const { rows } = await c.query<{ json: string }>(`FETCH ${LOAD_BATCH} FROM reviews_in_order`);
            for (const row of rows) reviews.push(JSON.parse(row.json) as Review);
            if (rows.length < LOAD_BATCH) break;
          }
          const modified = new Map<string, string>();
          for (const row of (await c.query<{ id: string; modified_at: string }>('SELECT id, modified_at FROM reviews WHERE modified_at IS NOT NULL')).rows) modified.set(row.id, row.modified_at);
          await c.query('COMMIT');
          const get = (k: string) => meta.find((r) => r.key === k)?.value;
          const business = get('business');
          return {
            revision: { revision: Number(get('revision')), updated_at: get('updated_at')! },
            business: business ? (JSON.parse(business) as Business) : null,
            reviews,
            modified,
          };
        } catch (err) {
          await c.query('ROLLBACK').catch(() => {});
          throw err;
        }
      });
    },

    async importReviews(req: ImportRequest): Promise<ImportOutcome> {
      return tx(pool, async (c) => {
        // Importers take turns, so two cannot plan against the same state.
        await c.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
        const revision = Number(await meta(c, 'revision'));
        const existing = new Map<string, string>();
        for (const row of (await c.query<{ id: string; json: string }>('SELECT id, json FROM reviews')).rows) existing.set(row.id, row.json);
        const { plan, businessJson, outcome, write } = prepareImport(existing, await meta(c, 'business'), req, revision);
        if (!write) return outcome;
        // The import's one time: the data's updated_at, and the modification time of each review it changed as a feed reader sees it.
        const now = importTime((await meta(c, 'updated_at')) ?? '');
        const writes = [...plan.added, ...plan.updated];
        const total = writes.length + plan.removed.length;
        let done = 0;
        for (let i = 0; i < writes.length; i += BATCH) {
          const batch = writes.slice(i, i + BATCH);
          const modified = batch.map((r) => (plan.retimed.has(r.id) ? now : null));
          // A change a feed reader does not see (a new avatar address) keeps the time the review had.
          await c.query(
            `INSERT INTO reviews (id, date, rating, json, modified_at) SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[])
             ON CONFLICT (id) DO UPDATE SET date = excluded.date, rating = excluded.rating, json = excluded.json, modified_at = coalesce(excluded.modified_at, reviews.modified_at)`,
            [batch.map((r) => r.id), batch.map((r) => r.date), batch.map((r) => r.rating), batch.map((r) => JSON.stringify(r)), modified],
          );
          done += batch.length;
          req.onProgress?.(done, total);
        }
        for (let i = 0; i < plan.removed.length; i += BATCH) {
          const batch = plan.removed.slice(i, i + BATCH);
          await c.query('DELETE FROM reviews WHERE id = ANY($1::text[])', [batch]);
          done += batch.length;
          req.onProgress?.(done, total);
        }
        if (businessJson !== undefined) await setMeta(c, 'business', businessJson);
        await setMeta(c, 'revision', String(outcome.revision_after));
        await setMeta(c, 'updated_at', now);
        // Delivered at commit: every replica listening refreshes at once.
        await c.query('SELECT pg_notify($1, $2)', [CHANNEL, String(outcome.revision_after)]);
        return outcome;
      });
    },

    /** Calls `onChange` whenever any process commits a new revision (LISTEN/NOTIFY); reconnects after errors. */
    subscribe(onChange: () => void): () => void {
      watchers.add(onChange);
      if (!listener) void listen();
      return () => watchers.delete(onChange);
    },

    async stopListening(): Promise<void> {
      closed = true;
      watchers.clear();
      const l = listener;
      listener = null;
      if (l) {
        l.removeAllListeners('error');
        l.on('error', () => {});
        await l.end().catch(() => {});
      }
    },
  };
}
