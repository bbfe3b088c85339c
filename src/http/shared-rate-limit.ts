/** The @fastify/rate-limit store over the service's database, shared by every replica. */
import type { RateLimitStore } from '../store/store.js';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A @fastify/rate-limit store backed by the service's own database, so every replica counts
 * against one limit per client instead of each keeping its own (docs/security.md: rate limits).
 */
export function sharedRateLimitStore(store: RateLimitStore) {
  return class SharedRateLimitStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      store.hitRateLimit(`rl:${key}`, timeWindow, now).then(
        ({ count, resetAt }) => cb(null, { current: count, ttl: Math.max(0, resetAt - now) }),
        (err: unknown) => cb(err as Error),
      );
    }

    child(): this {
      return this;
    }
  };
}
