import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { prepareImport, type ImportOutcome } from '../../core/import-plan.js';
import type { Business } from '../../core/schema/business.js';
import type { Review } from '../../core/schema/review.js';
import type { DeliveryJob, Subscription, VerificationJob, VerificationRequest, VerificationResult } from '../hub-store.js';
import type { ImportRequest, RevisionInfo, Store, StoredData } from '../store.js';
import { sqliteMigrations } from './migrations.js';

const BATCH = 500;
/** File events come in bursts (a commit writes the WAL several times): one check per burst. */
const CHANGE_SETTLE_MS = 25;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly getMeta: Database.Statement<[string], { value: string }>;
  private readonly setMeta: Database.Statement<[string, string]>;
  private readonly watchers = new Set<FSWatcher>();

  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // The CLI and the server share the file: wait for a writer instead of failing at once.
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('synchronous = NORMAL');
    this.migrate();
    this.getMeta = this.db.prepare('SELECT value FROM meta WHERE key = ?');
    this.setMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }

  private migrate(): void {
    const apply = this.db.transaction(() => {
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version > sqliteMigrations.length) {
        throw new Error(`database schema version ${version} is newer than this reviewcast (${sqliteMigrations.length}); upgrade reviewcast`);
      }
      for (let v = version; v < sqliteMigrations.length; v++) this.db.exec(sqliteMigrations[v]!);
      this.db.pragma(`user_version = ${sqliteMigrations.length}`);
    });
    apply.immediate();
  }

  private readRevision(): RevisionInfo {
    return {
      revision: Number(this.getMeta.get('revision')!.value),
      updated_at: this.getMeta.get('updated_at')!.value,
    };
  }

  async getRevision(): Promise<RevisionInfo> {
    return this.readRevision();
  }

  async load(): Promise<StoredData> {
    const read = this.db.transaction((): StoredData => {
      const business = this.getMeta.get('business');
      const rows = this.db.prepare('SELECT json FROM reviews ORDER BY date DESC, id DESC').pluck().all() as string[];
      return {
        revision: this.readRevision(),
        business: business ? (JSON.parse(business.value) as Business) : null,
        reviews: rows.map((j) => JSON.parse(j) as Review),
      };
    });
    return read.deferred();
  }

  async importReviews(req: ImportRequest): Promise<ImportOutcome> {
    const run = this.db.transaction((): ImportOutcome => {
      const before = this.readRevision();
      const existing = new Map<string, string>();
      for (const row of this.db.prepare('SELECT id, json FROM reviews').iterate() as Iterable<{ id: string; json: string }>) {
        existing.set(row.id, row.json);
      }
      const { plan, businessJson, outcome, write } = prepareImport(existing, this.getMeta.get('business')?.value, req, before.revision);
      if (!write) return outcome;

      const upsert = this.db.prepare(
        'INSERT INTO reviews (id, date, rating, json) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET date = excluded.date, rating = excluded.rating, json = excluded.json',
      );
      const del = this.db.prepare('DELETE FROM reviews WHERE id = ?');
      const writes = [...plan.added, ...plan.updated];
      const total = writes.length + plan.removed.length;
      let done = 0;
      for (const r of writes) {
        upsert.run(r.id, r.date, r.rating, JSON.stringify(r));
        if (++done % BATCH === 0) req.onProgress?.(done, total);
      }
      for (const id of plan.removed) {
        del.run(id);
        if (++done % BATCH === 0) req.onProgress?.(done, total);
      }
      req.onProgress?.(total, total);
      if (businessJson !== undefined) this.setMeta.run('business', businessJson);
      this.setMeta.run('revision', String(outcome.revision_after));
      this.setMeta.run('updated_at', new Date().toISOString());
      return outcome;
    });
    // IMMEDIATE: take the write lock before reading, so two importers cannot plan against the same state.
    return run.immediate();
  }

  async getOrCreateSetting(key: string, create: () => string): Promise<string> {
    const run = this.db.transaction((): string => {
      const existing = this.getMeta.get(`setting:${key}`);
      if (existing) return existing.value;
      const value = create();
      this.setMeta.run(`setting:${key}`, value);
      return value;
    });
    return run.immediate();
  }

  /**
   * SQLite cannot announce a commit, but another process's commit writes the database's files:
   * a watch on its folder (inotify on Linux) signals soon after, so an import is served without
   * waiting for the next poll. Our own writes signal too; the check they cause is one cheap read.
   * Where the folder cannot be watched, polling alone remains.
   */
  subscribe(onChange: () => void): () => void {
    if (this.path === ':memory:') return () => {};
    const name = basename(this.path);
    let pending: NodeJS.Timeout | null = null;
    let watcher: FSWatcher;
    try {
      watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
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
      this.watchers.delete(watcher);
    };
    watcher.on('error', stop);
    this.watchers.add(watcher);
    return stop;
  }

  async hitRateLimit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }> {
    const row = this.db
      .prepare(
        `INSERT INTO rate_limits (key, window_start, count) VALUES (@key, @now, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.window_start + @window <= @now THEN 1 ELSE rate_limits.count + 1 END,
           window_start = CASE WHEN rate_limits.window_start + @window <= @now THEN @now ELSE rate_limits.window_start END
         RETURNING count, window_start`,
      )
      .get({ key, now, window: windowMs }) as { count: number; window_start: number };
    return { count: row.count, resetAt: row.window_start + windowMs };
  }

  async pruneRateLimits(cutoff: number): Promise<number> {
    return this.db.prepare('DELETE FROM rate_limits WHERE window_start < ?').run(cutoff).changes;
  }

  async createMcpSession(id: string, now: number): Promise<void> {
    this.db.prepare('INSERT INTO mcp_sessions (id, created_at, last_seen_at) VALUES (?, ?, ?)').run(id, now, now);
  }

  async useMcpSession(id: string, now: number, idleMs: number, touchEveryMs: number): Promise<'ok' | 'unknown' | 'ended' | 'idle'> {
    const row = this.db.prepare('SELECT last_seen_at, ended_at FROM mcp_sessions WHERE id = ?').get(id) as
      | { last_seen_at: number; ended_at: number | null }
      | undefined;
    if (!row) return 'unknown';
    if (row.ended_at !== null) return 'ended';
    if (now - row.last_seen_at > idleMs) return 'idle';
    if (now - row.last_seen_at >= touchEveryMs) this.db.prepare('UPDATE mcp_sessions SET last_seen_at = ? WHERE id = ?').run(now, id);
    return 'ok';
  }

  async endMcpSession(id: string, now: number): Promise<boolean> {
    return this.db.prepare('UPDATE mcp_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(now, id).changes > 0;
  }

  async pruneMcpSessions(cutoff: number): Promise<number> {
    return this.db.prepare('DELETE FROM mcp_sessions WHERE created_at < ?').run(cutoff).changes;
  }

  async enqueueVerification(req: VerificationRequest, now: number): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO hub_verifications (callback, topic, callback_host, mode, lease_seconds, secret, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(req.callback, req.topic, req.callback_host, req.mode, req.lease_seconds, req.secret, now, now);
  }

  async claimVerifications(now: number, claimMs: number, limit: number): Promise<VerificationJob[]> {
    return this.db
      .prepare(
        `UPDATE hub_verifications SET due_at = ? WHERE id IN (SELECT id FROM hub_verifications WHERE due_at <= ? ORDER BY id LIMIT ?)
         RETURNING id, callback, topic, callback_host, mode, lease_seconds, secret`,
      )
      .all(now + claimMs, now, limit) as VerificationJob[];
  }

  async finishVerification(job: VerificationJob, result: VerificationResult, now: number): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM hub_verifications WHERE id = ?').run(job.id);
      if (result.kind !== 'verified') return;
      if (job.mode === 'subscribe') {
        this.db
          .prepare(
            `INSERT INTO hub_subscriptions (callback, topic, callback_host, secret, lease_seconds, expires_at, failures, created_at)
             VALUES (?, ?, ?, ?, ?, ?, 0, ?)
             ON CONFLICT (callback, topic) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
               expires_at = excluded.expires_at, failures = 0`,
          )
          .run(job.callback, job.topic, job.callback_host, job.secret, job.lease_seconds, now + job.lease_seconds * 1000, now);
      } else {
        this.db.prepare('DELETE FROM hub_subscriptions WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
        this.db.prepare('DELETE FROM hub_deliveries WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
      }
    }).immediate();
  }

  async countForHost(host: string, now: number): Promise<number> {
    const row = this.db
      .prepare(
        `SELECT (SELECT count(*) FROM hub_subscriptions WHERE callback_host = ? AND expires_at > ?)
              + (SELECT count(*) FROM hub_verifications WHERE callback_host = ? AND mode = 'subscribe') AS n`,
      )
      .get(host, now, host) as { n: number };
    return row.n;
  }

  async listSubscriptions(): Promise<Subscription[]> {
    return this.db.prepare('SELECT * FROM hub_subscriptions ORDER BY topic, callback').all() as Subscription[];
  }

  async listPendingVerifications(): Promise<VerificationJob[]> {
    return this.db.prepare('SELECT id, callback, topic, callback_host, mode, lease_seconds, secret FROM hub_verifications ORDER BY id').all() as VerificationJob[];
  }

  async announceTopic(topic: string, etag: string, revision: number, now: number): Promise<number> {
    return this.db.transaction((): number => {
      const prev = this.db.prepare('SELECT etag, revision FROM hub_topics WHERE topic = ?').get(topic) as { etag: string; revision: number } | undefined;
      if (prev && (prev.etag === etag || prev.revision > revision)) return 0;
      this.db
        .prepare('INSERT INTO hub_topics (topic, etag, revision) VALUES (?, ?, ?) ON CONFLICT (topic) DO UPDATE SET etag = excluded.etag, revision = excluded.revision')
        .run(topic, etag, revision);
      // The first announcement only records the body: nobody can have subscribed to an unannounced topic.
      if (prev === undefined) return 0;
      return this.db
        .prepare(
          `INSERT INTO hub_deliveries (callback, topic, seq, due_at)
           SELECT callback, topic, 1, ? FROM hub_subscriptions WHERE topic = ? AND expires_at > ?
           ON CONFLICT (callback, topic) DO UPDATE SET seq = seq + 1`,
        )
        .run(now, topic, now).changes;
    }).immediate();
  }

  async claimDeliveries(now: number, claimMs: number, limit: number): Promise<DeliveryJob[]> {
    return this.db.transaction((): DeliveryJob[] => {
      // Deliveries for subscriptions that ended (lease, unsubscribe) are dropped, not sent.
      this.db
        .prepare(
          `DELETE FROM hub_deliveries WHERE due_at <= ? AND NOT EXISTS (
             SELECT 1 FROM hub_subscriptions s WHERE s.callback = hub_deliveries.callback AND s.topic = hub_deliveries.topic AND s.expires_at > ?)`,
        )
        .run(now, now);
      const jobs = this.db
        .prepare(
          `UPDATE hub_deliveries SET due_at = ? WHERE id IN (SELECT id FROM hub_deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?)
           RETURNING id, callback, topic, seq`,
        )
        .all(now + claimMs, now, limit) as Omit<DeliveryJob, 'secret' | 'etag'>[];
      const secret = this.db.prepare('SELECT secret FROM hub_subscriptions WHERE callback = ? AND topic = ?').pluck();
      const etag = this.db.prepare('SELECT etag FROM hub_topics WHERE topic = ?').pluck();
      return jobs.map((j) => ({
        ...j,
        secret: (secret.get(j.callback, j.topic) as string | null | undefined) ?? null,
        etag: (etag.get(j.topic) as string | undefined) ?? '',
      }));
    }).immediate();
  }

  async deliverySucceeded(job: DeliveryJob, now: number): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('UPDATE hub_subscriptions SET failures = 0 WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
      const done = this.db.prepare('DELETE FROM hub_deliveries WHERE id = ? AND seq = ?').run(job.id, job.seq).changes;
      // A newer change arrived while this one was in flight: send again now.
      if (done === 0) this.db.prepare('UPDATE hub_deliveries SET due_at = ? WHERE id = ?').run(now, job.id);
    }).immediate();
  }

  async releaseDelivery(job: DeliveryJob, dueAt: number): Promise<void> {
    this.db.prepare('UPDATE hub_deliveries SET due_at = ? WHERE id = ?').run(dueAt, job.id);
  }

  async deliveryFailed(
    job: DeliveryJob,
    now: number,
    opts: { gone: boolean; maxFailures: number; retryDelaysMs: readonly number[] },
  ): Promise<'retry' | 'removed'> {
    return this.db.transaction((): 'retry' | 'removed' => {
      const row = this.db
        .prepare('UPDATE hub_subscriptions SET failures = failures + 1 WHERE callback = ? AND topic = ? RETURNING failures')
        .get(job.callback, job.topic) as { failures: number } | undefined;
      if (!row || opts.gone || row.failures >= opts.maxFailures) {
        this.db.prepare('DELETE FROM hub_subscriptions WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
        this.db.prepare('DELETE FROM hub_deliveries WHERE id = ?').run(job.id);
        return 'removed';
      }
      const delay = opts.retryDelaysMs[Math.min(row.failures - 1, opts.retryDelaysMs.length - 1)] ?? 0;
      this.db.prepare('UPDATE hub_deliveries SET due_at = ? WHERE id = ?').run(now + delay, job.id);
      return 'retry';
    }).immediate();
  }

  async removeExpired(now: number): Promise<number> {
    return this.db.transaction((): number => {
      const n = this.db.prepare('DELETE FROM hub_subscriptions WHERE expires_at <= ?').run(now).changes;
      this.db
        .prepare('DELETE FROM hub_deliveries WHERE NOT EXISTS (SELECT 1 FROM hub_subscriptions s WHERE s.callback = hub_deliveries.callback AND s.topic = hub_deliveries.topic)')
        .run();
      return n;
    }).immediate();
  }

  async close(): Promise<void> {
    for (const w of this.watchers) w.close();
    this.watchers.clear();
    this.db.close();
  }
}
