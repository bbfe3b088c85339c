/** The WebSub hub's state on PostgreSQL: work is claimed with FOR UPDATE SKIP LOCKED, so replicas share it. */
import type pg from 'pg';
import type { CapCounts, DeliveryJob, HubStore, Subscription, VerificationJob, VerificationRequest, VerificationResult } from '../hub-store.js';
import { tx } from './sql.js';

export function postgresHubStore(pool: pg.Pool): HubStore {
  return {
    async enqueueVerification(req: VerificationRequest, now: number): Promise<void> {
      await pool.query(
        'INSERT INTO hub_verifications (callback, topic, callback_host, client, mode, lease_seconds, secret, due_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)',
        [req.callback, req.topic, req.callback_host, req.client, req.mode, req.lease_seconds, req.secret, now],
      );
    },

    async claimVerifications(now: number, claimMs: number, limit: number): Promise<VerificationJob[]> {
      return (
        await pool.query<VerificationJob>(
          `UPDATE hub_verifications SET due_at = $1
           WHERE id IN (SELECT id FROM hub_verifications WHERE due_at <= $2 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
           RETURNING id, callback, topic, callback_host, client, mode, lease_seconds, secret`,
          [now + claimMs, now, limit],
        )
      ).rows;
    },

    async finishVerification(job: VerificationJob, result: VerificationResult, now: number): Promise<void> {
      await tx(pool, async (c) => {
        await c.query('DELETE FROM hub_verifications WHERE id = $1', [job.id]);
        if (result.kind !== 'verified') return;
        if (job.mode === 'subscribe') {
          await c.query(
            `INSERT INTO hub_subscriptions (callback, topic, callback_host, client, secret, lease_seconds, expires_at, failures, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8)
             ON CONFLICT (callback, topic) DO UPDATE SET client = excluded.client, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
               expires_at = excluded.expires_at, failures = 0`,
            [job.callback, job.topic, job.callback_host, job.client, job.secret, job.lease_seconds, now + job.lease_seconds * 1000, now],
          );
        } else {
          await c.query('DELETE FROM hub_subscriptions WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
          await c.query('DELETE FROM hub_deliveries WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
        }
      });
    },

    async countForCaps(host: string, client: string, now: number): Promise<CapCounts> {
      return (
        await pool.query<CapCounts>(
          `SELECT ((SELECT count(*) FROM hub_subscriptions WHERE callback_host = $1 AND expires_at > $3)
                 + (SELECT count(*) FROM hub_verifications WHERE callback_host = $1))::int AS host,
                  ((SELECT count(*) FROM hub_subscriptions WHERE client = $2 AND expires_at > $3)
                 + (SELECT count(*) FROM hub_verifications WHERE client = $2))::int AS client,
                  ((SELECT count(*) FROM hub_subscriptions WHERE expires_at > $3)
                 + (SELECT count(*) FROM hub_verifications))::int AS total`,
          [host, client, now],
        )
      ).rows[0]!;
    },

    async requestState(callback: string, topic: string, now: number): Promise<{ active: boolean; pending: number }> {
      return (
        await pool.query<{ active: boolean; pending: number }>(
          `SELECT EXISTS (SELECT 1 FROM hub_subscriptions WHERE callback = $1 AND topic = $2 AND expires_at > $3) AS active,
                  (SELECT count(*) FROM hub_verifications WHERE callback = $1 AND topic = $2)::int AS pending`,
          [callback, topic, now],
        )
      ).rows[0]!;
    },

    async listSubscriptions(): Promise<Subscription[]> {
      return (await pool.query<Subscription>('SELECT * FROM hub_subscriptions ORDER BY topic, callback')).rows;
    },

    async listPendingVerifications(): Promise<VerificationJob[]> {
      return (await pool.query<VerificationJob>('SELECT id, callback, topic, callback_host, client, mode, lease_seconds, secret FROM hub_verifications ORDER BY id')).rows;
    },

    async announceTopic(topic: string, etag: string, revision: number, now: number): Promise<number> {
      return tx(pool, async (c) => {
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
    },

    async claimDeliveries(now: number, claimMs: number, limit: number): Promise<DeliveryJob[]> {
      return tx(pool, async (c) => {
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
    },

    async deliverySucceeded(job: DeliveryJob, now: number): Promise<void> {
      await tx(pool, async (c) => {
        await c.query('UPDATE hub_subscriptions SET failures = 0 WHERE callback = $1 AND topic = $2', [job.callback, job.topic]);
        const done = (await c.query('DELETE FROM hub_deliveries WHERE id = $1 AND seq = $2', [job.id, job.seq])).rowCount ?? 0;
        if (done === 0) await c.query('UPDATE hub_deliveries SET due_at = $2 WHERE id = $1', [job.id, now]);
      });
    },

    async rescheduleDelivery(job: DeliveryJob, dueAt: number): Promise<void> {
      await pool.query('UPDATE hub_deliveries SET due_at = $2 WHERE id = $1', [job.id, dueAt]);
    },

    async recordDeliveryFailure(job: DeliveryJob): Promise<number | null> {
      const row = (
        await pool.query<{ failures: number }>('UPDATE hub_subscriptions SET failures = failures + 1 WHERE callback = $1 AND topic = $2 RETURNING failures', [
          job.callback,
          job.topic,
        ])
      ).rows[0];
      return row?.failures ?? null;
    },

    async removeSubscription(callback: string, topic: string): Promise<void> {
      await tx(pool, async (c) => {
        await c.query('DELETE FROM hub_subscriptions WHERE callback = $1 AND topic = $2', [callback, topic]);
        await c.query('DELETE FROM hub_deliveries WHERE callback = $1 AND topic = $2', [callback, topic]);
      });
    },

    async removeExpired(now: number): Promise<number> {
      return tx(pool, async (c) => {
        const n = (await c.query('DELETE FROM hub_subscriptions WHERE expires_at <= $1', [now])).rowCount ?? 0;
        await c.query('DELETE FROM hub_deliveries d WHERE NOT EXISTS (SELECT 1 FROM hub_subscriptions s WHERE s.callback = d.callback AND s.topic = d.topic)');
        return n;
      });
    },
  };
}
