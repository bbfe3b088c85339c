/** Settings on PostgreSQL (e.g. signing keys), kept in the meta table. */
import type pg from 'pg';
import type { SettingsStore } from '../store.js';
import { meta } from './sql.js';

export function postgresSettingsStore(pool: pg.Pool): SettingsStore {
  return {
    async getOrCreateSetting(key: string, create: () => string): Promise<string> {
      await pool.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [`setting:${key}`, create()]);
      return (await meta(pool, `setting:${key}`))!;
    },
  };
}
