/** Rate-limit counters on SQLite, shared by every process on the database file. */
import type Database from 'better-sqlite3';
import type { RateLimitStore } from '../store.js';

export function sqliteRateLimitStore(db: Database.Database): RateLimitStore {
  // Prepared once: preparing took as long as running it, on every cost write of the hot path.
  const hit = db.prepare(
    `INSERT INTO rate_limits (key, window_start, count) VALUES (@key, @now, @weight)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_limits.window_start + @window <= @now THEN @weight ELSE rate_limits.count + @weight END,
       window_start = CASE WHEN rate_limits.window_start + @window <= @now THEN @now ELSE rate_limits.window_start END
     RETURNING count, window_start`,
  );
  return {
    async hitRateLimit(key: string, windowMs: number, now: number, weight = 1): Promise<{ count: number; resetAt: number }> {
      const row = hit.get({ key, now, window: windowMs, weight }) as { count: number; window_start: number };
      return { count: row.count, resetAt: row.window_start + windowMs };
    },

    async pruneRateLimits(cutoff: number): Promise<number> {
      return db.prepare('DELETE FROM rate_limits WHERE window_start < ?').run(cutoff).changes;
    },
  };
}
