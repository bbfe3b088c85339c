import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { planImport, planIsEmpty } from '../../core/import-plan.js';
import { BusinessSchema, type Business } from '../../core/schema/business.js';
import type { Review } from '../../core/schema/review.js';
import type { ImportOutcome, ImportRequest, RevisionInfo, Store, StoredData } from '../store.js';
import { sqliteMigrations } from './migrations.js';

const BATCH = 500;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly getMeta: Database.Statement<[string], { value: string }>;
  private readonly setMeta: Database.Statement<[string, string]>;

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
      const plan = planImport(existing, req.reviews, req.replace);
      const storedBusiness = this.getMeta.get('business')?.value;
      // Parsed again so the stored JSON has schema key order whoever the caller is.
      const newBusiness = req.business ? JSON.stringify(BusinessSchema.parse(req.business)) : undefined;
      const businessChanged = newBusiness !== undefined && newBusiness !== storedBusiness;
      const outcome: ImportOutcome = {
        added: plan.added.length,
        updated: plan.updated.length,
        removed: plan.removed.length,
        unchanged: plan.unchanged,
        business_changed: businessChanged,
        revision_before: before.revision,
        revision_after: before.revision,
      };
      if (req.dryRun || (planIsEmpty(plan) && !businessChanged)) return outcome;

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
      if (businessChanged) this.setMeta.run('business', newBusiness);
      outcome.revision_after = before.revision + 1;
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

  async close(): Promise<void> {
    this.db.close();
  }
}
