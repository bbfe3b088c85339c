/** What a revision made, kept on PostgreSQL by name and shared by every replica: only the newest revision's entries stay. */
import type pg from 'pg';
import type { KeptStore } from '../store.js';
import { tx } from './sql.js';

export function postgresKeptStore(pool: pg.Pool): KeptStore {
  return {
    async loadKept(revision, name) {
      const { rows } = await pool.query<{ bytes: Buffer }>('SELECT bytes FROM kept WHERE revision = $1 AND name = $2', [revision, name]);
      return rows[0]?.bytes ?? null;
    },
    async hasKept(revision, name) {
      return ((await pool.query('SELECT 1 FROM kept WHERE revision = $1 AND name = $2', [revision, name])).rowCount ?? 0) > 0;
    },
    async saveKept(revision, name, bytes) {
      await tx(pool, async (c) => {
        // Replicas saving at once take turns, so no older revision's entry is written after a newer one.
        await c.query('LOCK TABLE kept IN EXCLUSIVE MODE');
        const { rows } = await c.query<{ revision: string | null }>('SELECT MAX(revision) AS revision FROM kept');
        const kept = rows[0]?.revision ?? null;
        if (kept !== null && Number(kept) > revision) return;
        await c.query('DELETE FROM kept WHERE revision <> $1', [revision]);
        await c.query('INSERT INTO kept (revision, name, bytes) VALUES ($1, $2, $3) ON CONFLICT (revision, name) DO UPDATE SET bytes = excluded.bytes', [revision, name, bytes]);
      });
    },
  };
}
