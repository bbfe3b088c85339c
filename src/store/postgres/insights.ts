/** Kept insights documents on PostgreSQL: one row, the newest revision's, shared by every replica. */
import type pg from 'pg';
import type { InsightsStore } from '../store.js';
import { tx } from './sql.js';

export function postgresInsightsStore(pool: pg.Pool): InsightsStore {
  return {
    async loadInsights(revision, analyser) {
      const { rows } = await pool.query<{ document: Buffer }>('SELECT document FROM insights_documents WHERE revision = $1 AND analyser = $2', [revision, analyser]);
      return rows[0]?.document ?? null;
    },
    async saveInsights(revision, analyser, gzipped) {
      await tx(pool, async (c) => {
        // Replicas saving at once take turns, so the newest revision's row is the one left.
        await c.query('LOCK TABLE insights_documents IN EXCLUSIVE MODE');
        const { rows } = await c.query<{ revision: number | null }>('SELECT MAX(revision) AS revision FROM insights_documents');
        const kept = rows[0]?.revision ?? null;
        if (kept !== null && kept > revision) return;
        await c.query('DELETE FROM insights_documents');
        await c.query('INSERT INTO insights_documents (revision, analyser, document) VALUES ($1, $2, $3)', [revision, analyser, gzipped]);
      });
    },
  };
}
