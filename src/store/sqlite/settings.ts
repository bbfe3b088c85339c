/** Settings on SQLite (e.g. signing keys), kept in the meta table. */
import type Database from 'better-sqlite3';
import type { SettingsStore } from '../store.js';
import type { Meta } from './meta.js';

export function sqliteSettingsStore(db: Database.Database, { getMeta, setMeta }: Meta): SettingsStore {
  return {
    async getOrCreateSetting(key: string, create: () => string): Promise<string> {
      const run = db.transaction((): string => {
        const existing = getMeta.get(`setting:${key}`);
        if (existing) return existing.value;
        const value = create();
        setMeta.run(`setting:${key}`, value);
        return value;
      });
      return run.immediate();
    },
  };
}
