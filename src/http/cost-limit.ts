/** The cost-weighted rate limit: kilobytes of answers per client per minute, counted in the store so every replica shares it. */
import type { RateLimitStore } from '../store/store.js';

const WINDOW_MS = 60_000;
/** A client's cost goes to the store at once when a hundredth of the budget has gathered, and at least this much ... */
const MIN_FLUSH_BYTES = 256 * 1024;
/** ... and otherwise within this long, so small answers cost one write a second, not one each. */
const FLUSH_MS = 1000;

/**
 * Counting requests treats a 300-byte 304 and a 30 MB dataset alike; this counts what each
 * client's answers weigh, because bytes are what the work (building, compressing, sending)
 * grows with. Each answer's size is added to the client's counter in the store (RATE_LIMIT_COST_KB
 * per fixed minute, shared by replicas); once a write finds the client over the budget, this
 * process refuses it until the window ends, before any work is done. So a client gets at most one
 * answer (or 1% of the budget) past its budget per replica, however large the answers.
 */
export class CostLimit {
  /** Bytes answered per client and not yet counted in the store. */
  private pending = new Map<string, number>();
  /** Clients over budget, and when their window ends (ms). */
  private readonly blocked = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** A store write per hundredth of the budget (655 KB with the default 64 MB): a client overshoots its budget by at most 1% per replica, and 50 KB answers cost a write per 13 rather than per 5 (with the statement prepared each time, that was a fifth of their CPU time). */
  private readonly flushBytes: number;

  constructor(
    private readonly store: Pick<RateLimitStore, 'hitRateLimit'>,
    readonly limitKb: number,
    private readonly onError: (err: unknown) => void,
  ) {
    this.flushBytes = Math.max(MIN_FLUSH_BYTES, Math.floor((limitKb * 1024) / 100));
  }

  /** When a client over its budget may come back (ms since the epoch), or 0 when it may ask now. */
  blockedUntil(client: string, now: number): number {
    const until = this.blocked.get(client);
    if (until === undefined) return 0;
    if (until > now) return until;
    this.blocked.delete(client);
    return 0;
  }

  /** Counts `bytes` of answer against the client. */
  charge(client: string, bytes: number): void {
    if (bytes <= 0) return;
    const total = (this.pending.get(client) ?? 0) + bytes;
    this.pending.set(client, total);
    if (total >= this.flushBytes) {
      this.pending.delete(client);
      void this.write(client, total);
    } else {
      this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
    }
  }

  /** Writes every pending cost to the store. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const due = this.pending;
    this.pending = new Map();
    for (const [client, bytes] of due) void this.write(client, bytes);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async write(client: string, bytes: number): Promise<void> {
    try {
      const { count, resetAt } = await this.store.hitRateLimit(`cost:${client}`, WINDOW_MS, Date.now(), Math.ceil(bytes / 1024));
      if (count > this.limitKb) this.blocked.set(client, resetAt);
    } catch (err) {
      // The store being away must not take the service with it: the request-count limit still holds.
      this.onError(err);
    }
  }
}
