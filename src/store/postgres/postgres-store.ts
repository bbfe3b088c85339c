import pg from 'pg';
import { prepareImport, type ImportOutcome } from '../../core/import-plan.js';
import type { Business } from '../../core/schema/business.js';
import type { Review } from '../../core/schema/review.js';
import type { DeliveryJob, Subscription, VerificationJob, VerificationRequest, VerificationResult } from '../hub-store.js';
import type { ImportRequest, RevisionInfo, Store, StoredData } from '../store.js';
import { postgresMigrations } from './migrations.js';

// Epoch milliseconds are BIGINT: read them as numbers (exact below 2^53, far beyond any date here).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

const CHANNEL = 'reviewcast_revision';
/** Arbitrary constants naming the two advisory locks. */
const MIGRATION_LOCK = 726_115_001;
const IMPORT_LOCK = 726_115_002;
const BATCH = 1000;

type Tx = pg.PoolClient;

/**
 * The Store on PostgreSQL, for several replicas sharing one database: migrations under an
 * advisory lock, imports serialised by another, hub work claimed with FOR UPDATE SKIP LOCKED,
 * and every revision change announced with NOTIFY.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private listener: pg.Client | null = null;
  private readonly watchers = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  static async open(url: string): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection that fails (server restart, network) is dropped by the pool and the next query opens another.
    pool.on('error', () => {});
    const store = new PostgresStore(pool, url);
    await store.migrate();
    return store;
  }

  private async tx<T>(fn: (c: Tx) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  /** Safe when several replicas start at once: one migrates while the others wait on the lock. */
  private async migrate(): Promise<void> {
    await this.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query('CREATE TABLE IF NOT EXISTS reviewcast_schema (version INTEGER NOT NULL)');
      const row = (await c.query<{ version: number }>('SELECT version FROM reviewcast_schema')).rows[0];
      const version = row?.version ?? 0;
      if (version > postgresMigrations.length) {
        throw new Error(`database schema version ${version} is newer than this reviewcast (${postgresMigrations.length}); upgrade reviewcast`);
      }
      for (let v = version; v < postgresMigrations.length; v++) await c.query(postgresMigrations[v]!);
      if (row) await c.query('UPDATE reviewcast_schema SET version = $1', [postgresMigrations.length]);
      else await c.query('INSERT INTO reviewcast_schema (version) VALUES ($1)', [postgresMigrations.length]);
    });
  }

  private async meta(c: pg.ClientBase | pg.Pool, key: string): Promise<string | undefined> {
    return (await c.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key])).rows[0]?.value;
  }

  private async setMeta(c: pg.ClientBase, key: string, value: string): Promise<void> {
    await c.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  async getRevision(): Promise<RevisionInfo> {
    const rows = (await this.pool.query<{ key: string; value: string }>("SELECT key, value FROM meta WHERE key IN ('revision', 'updated_at')")).rows;
    const get = (k: string) => rows.find((r) => r.key === k)!.value;
    return { revision: Number(get('revision')), updated_at: get('updated_at') };
  }

  async load(): Promise<StoredData> {
    const c = await this.pool.connect();
    try {
      // One snapshot for all three reads.
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const meta = (await c.query<{ key: string; value: string }>('SELECT key, value FROM meta')).rows;
      const reviews = (await c.query<{ json: string }>('SELECT json FROM reviews ORDER BY date DESC, id DESC')).rows;
      await c.query('COMMIT');
      const get = (k: string) => meta.find((r) => r.key === k)?.value;
      const business = get('business');
      return {
        revision: { revision: Number(get('revision')), updated_at: get('updated_at')! },
        business: business ? (JSON.parse(business) as Business) : null,
        reviews: reviews.map((r) => JSON.parse(r.json) as Review),
      };
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  async importReviews(req: ImportRequest): Promise<ImportOutcome> {
    return this.tx(async (c) => {
      // Importers take turns, so two cannot plan against the same state.
      await c.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
      const revision = Number(await this.meta(c, 'revision'));
      const existing = new Map<string, string>();
      for (const row of (await c.query<{ id: string; json: string }>('SELECT id, json FROM reviews')).rows) existing.set(row.id, row.json);
      const { plan, businessJson, outcome, write } = prepareImport(existing, await this.meta(c, 'business'), req, revision);
      if (!write) return outcome;
      const writes = [...plan.added, ...plan.updated];
      const total = writes.length + plan.removed.length;
      let done = 0;
      for (let i = 0; i < writes.length; i += BATCH) {
        const batch = writes.slice(i, i + BATCH);
        await c.query(
          `INSERT INTO reviews (id, date, rating, json) SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[])
           ON CONFLICT (id) DO UPDATE SET date = excluded.date, rating = excluded.rating, json = excluded.json`,
          [batch.map((r) => r.id), batch.map((r) => r.date), batch.map((r) => r.rating), batch.map((r) => JSON.stringify(r))],
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
      if (businessJson !== undefined) await this.setMeta(c, 'business', businessJson);
      await this.setMeta(c, 'revision', String(outcome.revision_after));
      await this.setMeta(c, 'updated_at', new Date().toISOString());
      // Delivered at commit: every replica listening refreshes at once.
      await c.query('SELECT pg_notify($1, $2)', [CHANNEL, String(outcome.revision_after)]);
      return outcome;
    });
  }

  /** Calls `onChange` whenever any process commits a new revision (LISTEN/NOTIFY); reconnects after errors. */
  subscribe(onChange: () => void): () => void {
    this.watchers.add(onChange);
    if (!this.listener) void this.listen();
    return () => this.watchers.delete(onChange);
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    client.on('notification', () => {
      for (const w of this.watchers) w();
    });
    client.on('error', () => {
      // Polling still covers changes while the listener is down.
      this.listener = null;
      client.end().catch(() => {});
      setTimeout(() => void this.listen(), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch {
      client.emit('error', new Error('listen failed'));
    }
  }

  async getOrCreateSetting(key: string, create: () => string): Promise<string> {
    await this.pool.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [`setting:${key}`, create()]);
    return (await this.meta(this.pool, `setting:${key}`))!;
  }

  async hitRateLimit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }> {
    const row = (
      await this.pool.query<{ count: number; window_start: number }>(
        `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.window_start + $3 <= $2 THEN 1 ELSE rate_limits.count + 1 END,
           window_start = CASE WHEN rate_limits.window_start + $3 <= $2 THEN $2 ELSE rate_limits.window_start END
         RETURNING count, window_start`,
        [key, now, windowMs],
      )
    ).rows[0]!;
    return { count: row.count, resetAt: row.window_start + windowMs };
  }

  async pruneRateLimits(cutoff: number): Promise<number> {
    return (await this.pool.query('DELETE FROM rate_limits WHERE window_start < $1', [cutoff])).rowCount ?? 0;
  }

  async createMcpSession(id: string, now: number): Promise<void> {
    await this.pool.query('INSERT INTO mcp_sessions (id, created_at, last_seen_at) VALUES ($1, $2, $2)', [id, now]);
  }

  async useMcpSession(id: string, now: number, idleMs: number, touchEveryMs: number): Promise<'ok' | 'unknown' | 'ended' | 'idle'> {
    const row = (await this.pool.query<{ last_seen_at: number; ended_at: number | null }>('SELECT last_seen_at, ended_at FROM mcp_sessions WHERE id = $1', [id])).rows[0];
    if (!row) return 'unknown';
    if (row.ended_at !== null) return 'ended';
    if (now - row.last_seen_at > idleMs) return 'idle';
    if (now - row.last_seen_at >= touchEveryMs) await this.pool.query('UPDATE mcp_sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);
    return 'ok';
  }

  async endMcpSession(id: string, now: number): Promise<boolean> {
    return ((await this.pool.query('UPDATE mcp_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL', [id, now])).rowCount ?? 0) > 0;
  }

  async pruneMcpSessions(cutoff: number): Promise<number> {
    return (await this.pool.query('DELETE FROM mcp_sessions WHERE created_at < $1', [cutoff])).rowCount ?? 0;
  }

  async enqueueVerification(req: VerificationRequest, now: number): Promise<void> {
    await this.pool.query(
      'INSERT INTO hub_verifications (callback, topic, callback_host, mode, lease_seconds, secret, due_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)',
      [req.callback, req.topic, req.callback_host, req.mode, req.lease_seconds, req.secret, now],
    );
  }

  async claimVerifications(now: number, claimMs: number, limit: number): Promise<VerificationJob[]> {
    return (
      await this.pool.query<VerificationJob>(
        `UPDATE hub_verifications SET due_at = $1
         WHERE id IN (SELECT id FROM hub_verifications WHERE due_at <= $2 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, callback, topic, callback_host, mode, lease_seconds, secret`,
        [now + claimMs, now, limit],
      )
    ).rows;
  }

  async finishVerification(job: VerificationJob, result: VerificationResult, now: number): Promise<void> {
    await this.tx(async (c) => {
      await c.query('DELETE FROM hub_verifications WHERE id = $1', [job.id]);
      if (result.kind !== 'verified') return;
      if (job.mode === 'subscribe') {
        await c.query(
          `INSERT INTO hub_subscriptions (callback, topic, callback_host, secret, lease_seconds, expires_at, failures, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, 0, $7)
           ON CONFLICT (callback, topic) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
             expires_at = excluded.expires_at, failures = 0`,
          [job.callback, job.topic, job.callback_host, job.secret, job.lease_seconds, now + job.lease_seconds * 1000, now],
        );
      } else {
        await c.query('DELETE FROM hub_subscriptions WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
        await c.query('DELETE FROM hub_deliveries WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
      }
    });
  }

  async countForHost(host: string, now: number): Promise<number> {
    const row = (
      await this.pool.query<{ n: number }>(
        `SELECT ((SELECT count(*) FROM hub_subscriptions WHERE callback_host = $1 AND expires_at > $2)
              + (SELECT count(*) FROM hub_verifications WHERE callback_host = $1 AND mode = 'subscribe'))::int AS n`,
        [host, now],
      )
    ).rows[0]!;
    return row.n;
  }

  async listSubscriptions(): Promise<Subscription[]> {
    return (await this.pool.query<Subscription>('SELECT * FROM hub_subscriptions ORDER BY topic, callback')).rows;
  }

  async listPendingVerifications(): Promise<VerificationJob[]> {
    return (await this.pool.query<VerificationJob>('SELECT id, callback, topic, callback_host, mode, lease_seconds, secret FROM hub_verifications ORDER BY id')).rows;
  }

  async announceTopic(topic: string, etag: string, revision: number, now: number): Promise<number> {
    return this.tx(async (c) => {
      // The row lock makes replicas announcing the same change take turns: only the first finds it new.
      await c.query('INSERT INTO hub_topics (topic, etag) VALUES ($1, $2) ON CONFLICT (topic) DO NOTHING', [topic, '']);
      const row = (await c.query<{ etag: string; revision: number }>('SELECT etag, revision FROM hub_topics WHERE topic = $1 FOR UPDATE', [topic])).rows[0]!;
      const prev = row.etag;
      // A replica still on an older revision must not announce over a newer body.
      if (prev === etag || row.revision > revision) return 0;
      await c.query('UPDATE hub_topics SET etag = $2, revision = $3 WHERE topic = $1', [topic, etag, revision]);
      if (prev === '') return 0;
      const res = await c.query(
        `INSERT INTO hub_deliveries (callback, topic, seq, due_at)
         SELECT callback, topic, 1, $1 FROM hub_subscriptions WHERE topic = $2 AND expires_at > $1
         ON CONFLICT (callback, topic) DO UPDATE SET seq = hub_deliveries.seq + 1`,
        [now, topic],
      );
      return res.rowCount ?? 0;
    });
  }

  async claimDeliveries(now: number, claimMs: number, limit: number): Promise<DeliveryJob[]> {
    return this.tx(async (c) => {
      await c.query(
        `DELETE FROM hub_deliveries d WHERE d.due_at <= $1 AND NOT EXISTS (
           SELECT 1 FROM hub_subscriptions s WHERE s.callback = d.callback AND s.topic = d.topic AND s.expires_at > $1)`,
        [now],
      );
      return (
        await c.query<DeliveryJob>(
          `WITH claimed AS (
             UPDATE hub_deliveries SET due_at = $1
             WHERE id IN (SELECT id FROM hub_deliveries WHERE due_at <= $2 ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING id, callback, topic, seq)
           SELECT claimed.*, s.secret, coalesce(t.etag, '') AS etag FROM claimed
           JOIN hub_subscriptions s USING (callback, topic) LEFT JOIN hub_topics t ON t.topic = claimed.topic`,
          [now + claimMs, now, limit],
        )
      ).rows;
    });
  }

  async deliverySucceeded(job: DeliveryJob, now: number): Promise<void> {
    await this.tx(async (c) => {
      await c.query('UPDATE hub_subscriptions SET failures = 0 WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
      const done = (await c.query('DELETE FROM hub_deliveries WHERE id = $1 AND seq = $2', [job.id, job.seq])).rowCount ?? 0;
      if (done === 0) await c.query('UPDATE hub_deliveries SET due_at = $2 WHERE id = $1', [job.id, now]);
    });
  }

  async releaseDelivery(job: DeliveryJob, dueAt: number): Promise<void> {
    await this.pool.query('UPDATE hub_deliveries SET due_at = $2 WHERE id = $1', [job.id, dueAt]);
  }

  async deliveryFailed(
    job: DeliveryJob,
    now: number,
    opts: { gone: boolean; maxFailures: number; retryDelaysMs: readonly number[] },
  ): Promise<'retry' | 'removed'> {
    return this.tx(async (c) => {
      const row = (
        await c.query<{ failures: number }>('UPDATE hub_subscriptions SET failures = failures + 1 WHERE callback = $1 AND topic = $2 RETURNING failures', [
          job.callback,
          job.topic,
        ])
      ).rows[0];
      if (!row || opts.gone || row.failures >= opts.maxFailures) {
        await c.query('DELETE FROM hub_subscriptions WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
        await c.query('DELETE FROM hub_deliveries WHERE id = $1', [job.id]);
        return 'removed';
      }
      const delay = opts.retryDelaysMs[Math.min(row.failures - 1, opts.retryDelaysMs.length - 1)] ?? 0;
      await c.query('UPDATE hub_deliveries SET due_at = $2 WHERE id = $1', [job.id, now + delay]);
      return 'retry';
    });
  }

  async removeExpired(now: number): Promise<number> {
    return this.tx(async (c) => {
      const n = (await c.query('DELETE FROM hub_subscriptions WHERE expires_at <= $1', [now])).rowCount ?? 0;
      await c.query('DELETE FROM hub_deliveries d WHERE NOT EXISTS (SELECT 1 FROM hub_subscriptions s WHERE s.callback = d.callback AND s.topic = d.topic)');
      return n;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchers.clear();
    const l = this.listener;
    this.listener = null;
    if (l) {
      l.removeAllListeners('error');
      l.on('error', () => {});
      await l.end().catch(() => {});
    }
    await this.pool.end();
  }
}
