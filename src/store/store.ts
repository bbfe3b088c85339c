/** What the service keeps, one interface per concern; each backend (sqlite/, postgres/) implements each in its own file. */
import type { Business } from '../core/schema/business.js';
import type { Review } from '../core/schema/review.js';
import type { HubStore } from './hub-store.js';
import type { ImportOutcome } from '../core/import-plan.js';

/** The data's version: moves on every change, never otherwise. ETags, caches and hub notifications key off it. */
export interface RevisionInfo {
  revision: number;
  /** When the data last changed (ISO 8601); the Last-Modified of every dataset. */
  updated_at: string;
}

export interface StoredData {
  revision: RevisionInfo;
  business: Business | null;
  reviews: Review[];
  /** Per review id, when an import last changed what a feed reader sees of it (changedForReaders; ISO 8601); only those ever so changed after their first import. */
  modified: ReadonlyMap<string, string>;
}

export interface ImportRequest {
  reviews: Review[];
  /** Replaces the stored business profile when given. */
  business?: Business;
  /** Make the stored set exactly `reviews` (removes the rest). */
  replace: boolean;
  /** Work out the counts without writing. */
  dryRun: boolean;
  onProgress?: (done: number, total: number) => void;
}

/**
 * An import's time: now, or just after the data's last change when this host's clock is behind
 * the one that made it, so updated_at (and the modification times written with it) never go back
 * and no feed entry is later than its feed.
 */
export function importTime(previous: string): string {
  const now = Date.now();
  const last = Date.parse(previous);
  return new Date(Number.isFinite(last) && last >= now ? last + 1 : now).toISOString();
}

/** Reviews, the business profile and the revision they are at. */
export interface ReviewStore {
  getRevision(): Promise<RevisionInfo>;
  /** A consistent read of everything at one revision. */
  load(): Promise<StoredData>;
  /** Merge by id, atomically: all of it or none of it. The revision moves only if something changed. */
  importReviews(req: ImportRequest): Promise<ImportOutcome>;
  /**
   * Calls `onChange` soon after any process commits a new revision (PostgreSQL: NOTIFY; SQLite: a
   * watch on the database's files), and possibly at other times too; callers check the revision.
   * Polling stays the fallback. Returns an unsubscribe.
   */
  subscribe(onChange: () => void): () => void;
}

/** MCP sessions, so that every replica sees idleness and DELETE. */
export interface McpSessionStore {
  /** Records a new MCP session. */
  createMcpSession(id: string, now: number): Promise<void>;
  /**
   * Checks an MCP session and marks it used: 'ok', 'unknown', 'ended' (deleted) or 'idle' (unused
   * for longer than idleMs). last_seen is written at most every `touchEveryMs` to spare writes.
   */
  useMcpSession(id: string, now: number, idleMs: number, touchEveryMs: number): Promise<'ok' | 'unknown' | 'ended' | 'idle'>;
  /** Ends a session; false when it was not live. */
  endMcpSession(id: string, now: number): Promise<boolean>;
  /** Forgets sessions created before `createdBefore` (their tokens have expired) or last used before `seenBefore` (idle, or ended long ago). */
  pruneMcpSessions(createdBefore: number, seenBefore: number): Promise<number>;
  /** Sessions not ended, created at or after `createdAfter` and used at or after `seenAfter`: the ones the session cap counts. */
  countLiveMcpSessions(createdAfter: number, seenAfter: number): Promise<number>;
}

/** Request counters shared by every process on the database. */
export interface RateLimitStore {
  /**
   * Counts one request (or `weight` units of cost) against `key` in a fixed window of `windowMs`.
   * Returns the count so far in the current window and when that window ends.
   */
  hitRateLimit(key: string, windowMs: number, now: number, weight?: number): Promise<{ count: number; resetAt: number }>;
  /** Forgets counters whose window started before `cutoff`. */
  pruneRateLimits(cutoff: number): Promise<number>;
}

export interface SettingsStore {
  /** A value kept in the store's key-value table (e.g. signing keys), created once atomically if absent. */
  getOrCreateSetting(key: string, create: () => string): Promise<string>;
}

/**
 * What a revision computed (its insights, its published reviews' bytes and their compressed
 * forms), kept by name so that a restart or another replica serving the same revision loads it
 * instead of making it again. Names carry what else the bytes depend on (the build, the public
 * origin). Only the newest revision's entries are kept.
 */
export interface KeptStore {
  /** The bytes kept for `revision` under `name`, or null. */
  loadKept(revision: number, name: string): Promise<Buffer | null>;
  /** Whether bytes are kept for `revision` under `name`, without reading them. */
  hasKept(revision: number, name: string): Promise<boolean>;
  /**
   * Keeps `bytes` for `revision` under `name` and forgets every other revision's entries; does
   * nothing when a newer revision's entries are already kept (a slower replica must not replace them).
   */
  saveKept(revision: number, name: string, bytes: Buffer): Promise<void>;
}

/** What /healthz asks of the store. */
export interface HealthStore {
  /** Reads from the database itself, past any cache; throws when it can not (a corrupt or missing file, a database gone). */
  checkHealth(): Promise<void>;
}

/** One open database: every concern over it, and how to close it. */
export interface Store extends ReviewStore, HubStore, McpSessionStore, RateLimitStore, SettingsStore, HealthStore, KeptStore {
  close(): Promise<void>;
}
