/** Signed MCP session ids that every replica can check. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MCP_SESSION_TOUCH_SECONDS, type McpConfig } from '../config.js';
import type { McpSessionStore, SettingsStore } from '../store/store.js';

export type SessionCheck = 'ok' | 'invalid' | 'expired' | 'ended' | 'idle';

/** How often a live session's last use is written back: idleness is tracked to within this. */
const TOUCH_EVERY_MS = MCP_SESSION_TOUCH_SECONDS * 1000;
/** How often rows of sessions that can no longer be used (expired, idle, ended) are deleted. */
const PRUNE_EVERY_MS = 60_000;

/**
 * MCP session ids that any replica can check: `<id>.<expiry>.<HMAC>` signed with a key kept in
 * the shared store. The signature and expiry reject forged or stale ids without a lookup; the
 * store row tracks idleness and DELETE, which every replica sees.
 */
export class McpSessions {
  private lastPrune = 0;

  private constructor(
    private readonly store: McpSessionStore,
    private readonly key: Buffer,
    private readonly config: McpConfig,
  ) {}

  static async open(store: McpSessionStore & SettingsStore, config: McpConfig): Promise<McpSessions> {
    const key = await store.getOrCreateSetting('mcp_session_key', () => randomBytes(32).toString('hex'));
    return new McpSessions(store, Buffer.from(key, 'hex'), config);
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** Whether another session may start (MCP_MAX_SESSIONS); forgets sessions that can no longer be used first. */
  async hasRoom(now = Date.now()): Promise<boolean> {
    // Idle by more than the touch interval: surely idle, whatever replica last wrote it.
    const createdAfter = now - this.config.sessionMaxSeconds * 1000;
    const seenAfter = now - this.config.sessionIdleSeconds * 1000 - TOUCH_EVERY_MS;
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.store.pruneMcpSessions(createdAfter, seenAfter);
    }
    return (await this.store.countLiveMcpSessions(createdAfter, seenAfter)) < this.config.maxSessions;
  }

  async mint(now = Date.now()): Promise<string> {
    const id = randomBytes(18).toString('base64url');
    const expires = Math.floor(now / 1000) + this.config.sessionMaxSeconds;
    const payload = `${id}.${expires}`;
    await this.store.createMcpSession(id, now);
    return `${payload}.${this.sign(payload)}`;
  }

  private parse(token: string, now: number): { id: string } | 'invalid' | 'expired' {
    const parts = token.split('.');
    if (parts.length !== 3 || !/^[A-Za-z0-9_-]{24}$/.test(parts[0]!) || !/^\d{1,12}$/.test(parts[1]!)) return 'invalid';
    const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    if (Number(parts[1]) * 1000 <= now) return 'expired';
    return { id: parts[0]! };
  }

  async check(token: string, now = Date.now()): Promise<SessionCheck> {
    const parsed = this.parse(token, now);
    if (typeof parsed === 'string') return parsed;
    const state = await this.store.useMcpSession(parsed.id, now, this.config.sessionIdleSeconds * 1000, TOUCH_EVERY_MS);
    return state === 'unknown' ? 'invalid' : state;
  }

  /** Ends a live session; false if the token was not one. */
  async end(token: string, now = Date.now()): Promise<boolean> {
    const parsed = this.parse(token, now);
    if (typeof parsed === 'string') return false;
    return this.store.endMcpSession(parsed.id, now);
  }
}
