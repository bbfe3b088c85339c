/** MCP sessions on PostgreSQL: one row per session, for idleness and DELETE across replicas. */
import type pg from 'pg';
import type { McpSessionStore } from '../store.js';

export function postgresMcpSessionStore(pool: pg.Pool): McpSessionStore {
  return {
    async createMcpSession(id: string, now: number): Promise<void> {
      await pool.query('INSERT INTO mcp_sessions (id, created_at, last_seen_at) VALUES ($1, $2, $2)', [id, now]);
    },

    async useMcpSession(id: string, now: number, idleMs: number, touchEveryMs: number): Promise<'ok' | 'unknown' | 'ended' | 'idle'> {
      const row = (await pool.query<{ last_seen_at: number; ended_at: number | null }>('SELECT last_seen_at, ended_at FROM mcp_sessions WHERE id = $1', [id])).rows[0];
      if (!row) return 'unknown';
      if (row.ended_at !== null) return 'ended';
      if (now - row.last_seen_at > idleMs) return 'idle';
      if (now - row.last_seen_at >= touchEveryMs) await pool.query('UPDATE mcp_sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);
      return 'ok';
    },

    async endMcpSession(id: string, now: number): Promise<boolean> {
      return ((await pool.query('UPDATE mcp_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL', [id, now])).rowCount ?? 0) > 0;
    },

    async pruneMcpSessions(createdBefore: number, seenBefore: number): Promise<number> {
      return (await pool.query('DELETE FROM mcp_sessions WHERE created_at < $1 OR last_seen_at < $2', [createdBefore, seenBefore])).rowCount ?? 0;
    },

    async countLiveMcpSessions(createdAfter: number, seenAfter: number): Promise<number> {
      return (
        await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM mcp_sessions WHERE ended_at IS NULL AND created_at >= $1 AND last_seen_at >= $2', [createdAfter, seenAfter])
      ).rows[0]!.n;
    },
  };
}
