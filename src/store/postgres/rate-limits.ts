/** Rate-limit counters on PostgreSQL, shared by every replica. */
import type pg from 'pg';
import type { RateLimitStore } from '../store.js';

export function postgresRateLimitStore(pool: pg.Pool): RateLimitStore {
  return {
    async hitRateLimit(key: string, windowMs: number, now: number, weight = 1): Promise<{ count: number; resetAt: number }> {
      const row = (
        await pool.query<{ count: number; window_start: number }>(
          `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, $4)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN rate_limits.window_start + $3 <= $2 THEN $4 ELSE rate_limits.count + $4 END,
             window_start = CASE WHEN rate_limits.window_start + $3 <= $2 THEN $2 ELSE rate_limits.window_start END
           RETURNING count, window_start`,
          [key, now, windowMs, weight],
        )
      ).rows[0]!;
      return { count: row.count, resetAt: row.window_start + windowMs };
    },

    async pruneRateLimits(cutoff: number): Promise<number> {
      return (await pool.query('DELETE FROM rate_limits WHERE window_start < $1', [cutoff])).rowCount ?? 0;
    },
  };
}
