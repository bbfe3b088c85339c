/** The caches of built bodies, bounded in bytes: whole documents and per-request answers, kept apart. */
import { LRUCache } from 'lru-cache';
import { loadCostConfig, type CostConfig } from '../config.js';
import type { Representation } from './representation.js';

/** A cached body: a served representation, bytes (a document escaped as a JSON string), or a short tag. */
export type Cached = Representation | Buffer | string;

/** What an entry costs beyond its bytes: the key, the objects around it, the map slots. */
const ENTRY_OVERHEAD = 256;

function sizeOf(value: Cached, key: string): number {
  const bytes = typeof value === 'string' ? value.length * 2 : Buffer.isBuffer(value) ? value.length : value.bytes;
  return bytes + key.length * 2 + ENTRY_OVERHEAD;
}

/** One least-recently-used cache whose budget is counted in bytes (lru-cache's maxSize). */
export class BodyCache {
  private readonly lru: LRUCache<string, Cached>;

  constructor(
    readonly maxBytes: number,
    /** Told when a body is larger than the whole budget, so is never kept. */
    private readonly onTooLarge: (key: string, bytes: number) => void = () => undefined,
  ) {
    this.lru = new LRUCache<string, Cached>({ maxSize: maxBytes, sizeCalculation: sizeOf });
  }

  get(key: string): Cached | undefined {
    return this.lru.get(key);
  }

  set(key: string, value: Cached): void {
    const size = sizeOf(value, key);
    if (size > this.maxBytes) {
      this.lru.delete(key);
      this.onTooLarge(key, size);
      return;
    }
    this.lru.set(key, value);
  }

  /** Counts again an entry that grew (a coding was added), if it is still the one kept under its key. */
  recount(key: string, value: Cached): void {
    if (this.lru.peek(key) === value) this.set(key, value);
  }

  /** Bytes held, as the budget counts them. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get entries(): number {
    return this.lru.size;
  }

  /** Drops every entry whose key starts with `prefix`. */
  forget(prefix: string): void {
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
  }
}

/** The budgets, as configured (CACHE_DOCUMENT_MB, CACHE_ANSWER_MB). */
export type CacheBudget = Pick<CostConfig, 'documentCacheBytes' | 'answerCacheBytes'>;

/**
 * The two caches every snapshot of a process shares. Documents and answers have separate
 * budgets, so a flood of distinct answers can not evict the feeds and pages; keys carry the
 * snapshot they belong to, and a snapshot served no more has its bodies dropped from both.
 */
export class BodyCaches {
  readonly documents: BodyCache;
  readonly answers: BodyCache;

  constructor(budget: CacheBudget = loadCostConfig({}), onTooLarge?: (cache: 'documents' | 'answers', key: string, bytes: number) => void) {
    this.documents = new BodyCache(budget.documentCacheBytes, (key, bytes) => onTooLarge?.('documents', key, bytes));
    this.answers = new BodyCache(budget.answerCacheBytes, (key, bytes) => onTooLarge?.('answers', key, bytes));
  }

  /** Drops the bodies whose keys start with `prefix` (one snapshot's) from both caches. */
  forget(prefix: string): void {
    this.documents.forget(prefix);
    this.answers.forget(prefix);
  }
}
