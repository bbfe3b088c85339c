/** The WebSub hub's state on SQLite: verifications, subscriptions, topic bodies and queued deliveries. */
import type Database from 'better-sqlite3';
import type { CapCounts, DeliveryJob, HubStore, Subscription, VerificationJob, VerificationRequest, VerificationResult } from '../hub-store.js';

export function sqliteHubStore(db: Database.Database): HubStore {
  return {
    async enqueueVerification(req: VerificationRequest, now: number): Promise<void> {
      db
        .prepare(
          'INSERT INTO hub_verifications (callback, topic, callback_host, client, mode, lease_seconds, secret, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(req.callback, req.topic, req.callback_host, req.client, req.mode, req.lease_seconds, req.secret, now, now);
    },

    async claimVerifications(now: number, claimMs: number, limit: number): Promise<VerificationJob[]> {
      return db
        .prepare(
          `UPDATE hub_verifications SET due_at = ? WHERE id IN (SELECT id FROM hub_verifications WHERE due_at <= ? ORDER BY id LIMIT ?)
           RETURNING id, callback, topic, callback_host, client, mode, lease_seconds, secret`,
        )
        .all(now + claimMs, now, limit) as VerificationJob[];
    },

    async finishVerification(job: VerificationJob, result: VerificationResult, now: number): Promise<void> {
      db.transaction(() => {
        db.prepare('DELETE FROM hub_verifications WHERE id = ?').run(job.id);
        if (result.kind !== 'verified') return;
        if (job.mode === 'subscribe') {
          db
            .prepare(
              `INSERT INTO hub_subscriptions (callback, topic, callback_host, client, secret, lease_seconds, expires_at, failures, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
               ON CONFLICT (callback, topic) DO UPDATE SET client = excluded.client, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
                 expires_at = excluded.expires_at, failures = 0`,
            )
            .run(job.callback, job.topic, job.callback_host, job.client, job.secret, job.lease_seconds, now + job.lease_seconds * 1000, now);
        } else {
          db.prepare('DELETE FROM hub_subscriptions WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
          db.prepare('DELETE FROM hub_deliveries WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
        }
      }).immediate();
    },

    async countForCaps(host: string, client: string, now: number): Promise<CapCounts> {
      return db
        .prepare(
          `SELECT (SELECT count(*) FROM hub_subscriptions WHERE callback_host = ? AND expires_at > ?)
                + (SELECT count(*) FROM hub_verifications WHERE callback_host = ?) AS host,
                  (SELECT count(*) FROM hub_subscriptions WHERE client = ? AND expires_at > ?)
                + (SELECT count(*) FROM hub_verifications WHERE client = ?) AS client,
                  (SELECT count(*) FROM hub_subscriptions WHERE expires_at > ?)
                + (SELECT count(*) FROM hub_verifications) AS total`,
        )
        .get(host, now, host, client, now, client, now) as CapCounts;
    },

    async requestState(callback: string, topic: string, now: number): Promise<{ active: boolean; pending: number }> {
      const row = db
        .prepare(
          `SELECT EXISTS (SELECT 1 FROM hub_subscriptions WHERE callback = ? AND topic = ? AND expires_at > ?) AS active,
                  (SELECT count(*) FROM hub_verifications WHERE callback = ? AND topic = ?) AS pending`,
        )
        .get(callback, topic, now, callback, topic) as { active: number; pending: number };
      return { active: row.active === 1, pending: row.pending };
    },

    async listSubscriptions(): Promise<Subscription[]> {
      return db.prepare('SELECT * FROM hub_subscriptions ORDER BY topic, callback').all() as Subscription[];
    },

    async listPendingVerifications(): Promise<VerificationJob[]> {
      return db.prepare('SELECT id, callback, topic, callback_host, client, mode, lease_seconds, secret FROM hub_verifications ORDER BY id').all() as VerificationJob[];
    },

    async announceTopic(topic: string, etag: string, revision: number, now: number): Promise<number> {
      return db.transaction((): number => {
        const prev = db.prepare('SELECT etag, revision FROM hub_topics WHERE topic = ?').get(topic) as { etag: string; revision: number } | undefined;
        if (prev && (prev.etag === etag || prev.revision > revision)) return 0;
        db
          .prepare('INSERT INTO hub_topics (topic, etag, revision) VALUES (?, ?, ?) ON CONFLICT (topic) DO UPDATE SET etag = excluded.etag, revision = excluded.revision')
          .run(topic, etag, revision);
        // The first announcement only records the body: nobody can have subscribed to an unannounced topic.
        if (prev === undefined) return 0;
        return db
          .prepare(
            `INSERT INTO hub_deliveries (callback, topic, seq, due_at)
             SELECT callback, topic, 1, ? FROM hub_subscriptions WHERE topic = ? AND expires_at > ?
             ON CONFLICT (callback, topic) DO UPDATE SET seq = seq + 1`,
          )
          .run(now, topic, now).changes;
      }).immediate();
    },

    async claimDeliveries(now: number, claimMs: number, limit: number): Promise<DeliveryJob[]> {
      return db.transaction((): DeliveryJob[] => {
        // Deliveries for subscriptions that ended (lease, unsubscribe) are dropped, not sent.
        db
          .prepare(
            `DELETE FROM hub_deliveries WHERE due_at <= ? AND NOT EXISTS (
               SELECT 1 FROM hub_subscriptions s WHERE s.callback = hub_deliveries.callback AND s.topic = hub_deliveries.topic AND s.expires_at > ?)`,
          )
          .run(now, now);
        const jobs = db
          .prepare(
            `UPDATE hub_deliveries SET due_at = ? WHERE id IN (SELECT id FROM hub_deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?)
             RETURNING id, callback, topic, seq`,
          )
          .all(now + claimMs, now, limit) as Omit<DeliveryJob, 'secret' | 'etag'>[];
        const secret = db.prepare('SELECT secret FROM hub_subscriptions WHERE callback = ? AND topic = ?').pluck();
        const etag = db.prepare('SELECT etag FROM hub_topics WHERE topic = ?').pluck();
        return jobs.map((j) => ({
          ...j,
          secret: (secret.get(j.callback, j.topic) as string | null | undefined) ?? null,
          etag: (etag.get(j.topic) as string | undefined) ?? '',
        }));
      }).immediate();
    },

    async deliverySucceeded(job: DeliveryJob, now: number): Promise<void> {
      db.transaction(() => {
        db.prepare('UPDATE hub_subscriptions SET failures = 0 WHERE callback = ? AND topic = ?').run(job.callback, job.topic);
        const done = db.prepare('DELETE FROM hub_deliveries WHERE id = ? AND seq = ?').run(job.id, job.seq).changes;
        // A newer change arrived while this one was in flight: send again now.
        if (done === 0) db.prepare('UPDATE hub_deliveries SET due_at = ? WHERE id = ?').run(now, job.id);
      }).immediate();
    },

    async rescheduleDelivery(job: DeliveryJob, dueAt: number): Promise<void> {
      db.prepare('UPDATE hub_deliveries SET due_at = ? WHERE id = ?').run(dueAt, job.id);
    },

    async recordDeliveryFailure(job: DeliveryJob): Promise<number | null> {
      const row = db
        .prepare('UPDATE hub_subscriptions SET failures = failures + 1 WHERE callback = ? AND topic = ? RETURNING failures')
        .get(job.callback, job.topic) as { failures: number } | undefined;
      return row?.failures ?? null;
    },

    async removeSubscription(callback: string, topic: string): Promise<void> {
      db.transaction(() => {
        db.prepare('DELETE FROM hub_subscriptions WHERE callback = ? AND topic = ?').run(callback, topic);
        db.prepare('DELETE FROM hub_deliveries WHERE callback = ? AND topic = ?').run(callback, topic);
      }).immediate();
    },

    async removeExpired(now: number): Promise<number> {
      return db.transaction((): number => {
        const n = db.prepare('DELETE FROM hub_subscriptions WHERE expires_at <= ?').run(now).changes;
        db
          .prepare('DELETE FROM hub_deliveries WHERE NOT EXISTS (SELECT 1 FROM hub_subscriptions s WHERE s.callback = hub_deliveries.callback AND s.topic = hub_deliveries.topic)')
          .run();
        return n;
      }).immediate();
    },
  };
}
