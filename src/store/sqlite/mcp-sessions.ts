/** MCP sessions on SQLite: one row per session, for idleness and DELETE across replicas. */
import type Database from 'better-sqlite3';
import type { McpSessionStore } from '../store.js';

export function sqliteMcpSessionStore(db: Database.Database): McpSessionStore {
  return {
    async createMcpSession(id: string, now: number): Promise<void> {
      db.prepare('INSERT INTO mcp_sessions (id, created_at, last_seen_at) VALUES (?, ?, ?)').run(id, now, now);
    },

    async useMcpSession(id: string, now: number, idleMs: number, touchEveryMs: number): Promise<'ok' | 'unknown' | 'ended' | 'idle'> {
      const row = db.prepare('SELECT last_seen_at, ended_at FROM mcp_sessions WHERE id = ?').get(id) as
        | { last_seen_at: number; ended_at: number | null }
        | undefined;
      if (!row) return 'unknown';
      if (row.ended_at !== null) return 'ended';
      if (now - row.last_seen_at > idleMs) return 'idle';
      if (now - row.last_seen_at >= touchEveryMs) db.prepare('UPDATE mcp_sessions SET last_seen_at = ? WHERE id = ?').run(now, id);
      return 'ok';
    },

    async endMcpSession(id: string, now: number): Promise<boolean> {
      return db.prepare('UPDATE mcp_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(now, id).changes > 0;
    },

    async pruneMcpSessions(createdBefore: number, seenBefore: number): Promise<number> {
      return db.prepare('DELETE FROM mcp_sessions WHERE created_at < ? OR last_seen_at < ?').run(createdBefore, seenBefore).changes;
    },

    async countLiveMcpSessions(createdAfter: number, seenAfter: number): Promise<number> {
      return db.prepare('SELECT count(*) FROM mcp_sessions WHERE ended_at IS NULL AND created_at >= ? AND last_seen_at >= ?').pluck().get(createdAfter, seenAfter) as number;
    },
  };
}
