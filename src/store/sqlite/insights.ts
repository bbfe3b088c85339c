/** Kept insights documents on SQLite: one row, the newest revision's. */
import type Database from 'better-sqlite3';
import type { InsightsStore } from '../store.js';

export function sqliteInsightsStore(db: Database.Database): InsightsStore {
  const load = db.prepare<[number, string], { document: Buffer }>('SELECT document FROM insights_documents WHERE revision = ? AND analyser = ?');
  const newest = db.prepare<[], { revision: number | null }>('SELECT MAX(revision) AS revision FROM insights_documents');
  const clear = db.prepare('DELETE FROM insights_documents');
  const insert = db.prepare<[number, string, Buffer]>('INSERT INTO insights_documents (revision, analyser, document) VALUES (?, ?, ?)');
  const save = db.transaction((revision: number, analyser: string, gzipped: Buffer) => {
    const kept = newest.get()?.revision ?? null;
    if (kept !== null && kept > revision) return;
    clear.run();
    insert.run(revision, analyser, gzipped);
  });
  return {
    async loadInsights(revision, analyser) {
      return load.get(revision, analyser)?.document ?? null;
    },
    async saveInsights(revision, analyser, gzipped) {
      save.immediate(revision, analyser, gzipped);
    },
  };
}
