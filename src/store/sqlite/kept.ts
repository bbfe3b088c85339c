/** What a revision made, kept on SQLite by name: only the newest revision's entries stay. */
import type Database from 'better-sqlite3';
import type { KeptStore } from '../store.js';

export function sqliteKeptStore(db: Database.Database): KeptStore {
  const load = db.prepare<[number, string], { bytes: Buffer }>('SELECT bytes FROM kept WHERE revision = ? AND name = ?');
  const has = db.prepare<[number, string], { one: number }>('SELECT 1 AS one FROM kept WHERE revision = ? AND name = ?');
  const newest = db.prepare<[], { revision: number | null }>('SELECT MAX(revision) AS revision FROM kept');
  const forgetOthers = db.prepare<[number]>('DELETE FROM kept WHERE revision <> ?');
  const put = db.prepare<[number, string, Buffer]>('INSERT INTO kept (revision, name, bytes) VALUES (?, ?, ?) ON CONFLICT (revision, name) DO UPDATE SET bytes = excluded.bytes');
  const save = db.transaction((revision: number, name: string, bytes: Buffer) => {
    const kept = newest.get()?.revision ?? null;
    if (kept !== null && kept > revision) return;
    forgetOthers.run(revision);
    put.run(revision, name, bytes);
  });
  return {
    async loadKept(revision, name) {
      return load.get(revision, name)?.bytes ?? null;
    },
    async hasKept(revision, name) {
      return has.get(revision, name) !== undefined;
    },
    async saveKept(revision, name, bytes) {
      save.immediate(revision, name, bytes);
    },
  };
}
