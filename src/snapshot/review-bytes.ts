/** Every published review's JSON, serialised once per revision: the /reviews.json body and the slices date answers are cut from. */
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { publishReview } from '../core/reviews.js';
import type { AggregateRating } from '../core/schema/dataset.js';
import type { Business } from '../core/schema/business.js';
import type { Review } from '../core/schema/review.js';

/** Reviews serialised per step of a build: a few milliseconds of work. */
const SERIALISE_CHUNK = 2000;

/**
 * The /reviews.json body, byte for byte what JSON.stringify makes of the dataset (reviews last),
 * with the byte offset at which each review ends. The reviews are newest first, so the answer
 * for any date is the first k of them: a subarray of this one buffer, taken without copying or
 * serialising anything again, so an answer costs time in proportion to its own size.
 */
export class ReviewBytes {
  /** The /reviews.json identity body. */
  readonly dataset: Buffer;
  /** Where the first review starts in `dataset`. */
  private readonly start: number;
  /** ends[i]: where review i ends in `dataset` (the comma after it, or the closing bracket). */
  private readonly ends: Float64Array;
  /** Digest of each prefix asked for, by review count: ETags without hashing megabytes again. At most one per review date. */
  private readonly prefixDigests = new Map<number, string>();

  private constructor(
    dataset: Buffer,
    start: number,
    ends: Float64Array,
    readonly baseUrl: string,
    /** The dataset's ETag when it came from the store with it (not hashed again). */
    readonly etag?: string,
  ) {
    this.dataset = dataset;
    this.start = start;
    this.ends = ends;
  }

  /**
   * Bytes made with the dataset's `index(etag)` (kept in the store), or null when they do not
   * describe this many reviews of this dataset: then they are made again, never served wrong.
   */
  static fromKept(dataset: Buffer, index: Buffer, reviewCount: number, baseUrl: string): ReviewBytes | null {
    const newline = index.indexOf(0x0a);
    if (newline < 0 || (index.length - newline - 1) !== reviewCount * 8) return null;
    const header = headerOf(index.toString('utf8', 0, newline));
    if (!header) return null;
    const { etag, start } = header;
    const ends = new Float64Array(reviewCount);
    Buffer.from(ends.buffer).set(index.subarray(newline + 1));
    const last = reviewCount === 0 ? start : ends[reviewCount - 1]!;
    if (last + 2 !== dataset.length || dataset.toString('latin1', last) !== ']}') return null;
    return new ReviewBytes(dataset, start, ends, baseUrl, etag);
  }

  /** What fromKept needs besides the dataset: a line of JSON (its ETag, where the reviews start), then where each review ends. */
  index(etag: string): Buffer {
    return Buffer.concat([Buffer.from(`${JSON.stringify({ etag, start: this.start })}\n`), Buffer.from(this.ends.buffer, this.ends.byteOffset, this.ends.byteLength)]);
  }

  /** Built at once, on the caller's turn of the event loop. */
  static build(business: Business, aggregate: AggregateRating, reviews: readonly Review[], baseUrl: string): ReviewBytes {
    const steps = ReviewBytes.steps(business, aggregate, reviews, baseUrl);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /** Built a chunk of reviews at a time, awaiting `pause` between chunks so the event loop stays free. */
  static async make(business: Business, aggregate: AggregateRating, reviews: readonly Review[], baseUrl: string, pause: () => Promise<void>): Promise<ReviewBytes> {
    const steps = ReviewBytes.steps(business, aggregate, reviews, baseUrl);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await pause();
    }
  }

  /** The work of a build, in steps: each yield is a point where the event loop may run. */
  private static *steps(business: Business, aggregate: AggregateRating, reviews: readonly Review[], baseUrl: string): Generator<void, ReviewBytes> {
    const head = Buffer.from(`{"business":${JSON.stringify(business)},"aggregate_rating":${JSON.stringify(aggregate)},"reviews":[`);
    const chunks: Buffer[] = [head];
    const ends = new Float64Array(reviews.length);
    let at = head.length;
    for (let from = 0; from < reviews.length; from += SERIALISE_CHUNK) {
      const to = Math.min(reviews.length, from + SERIALISE_CHUNK);
      const parts = new Array<string>(to - from);
      for (let i = from; i < to; i++) {
        const json = JSON.stringify(publishReview(reviews[i]!, baseUrl));
        parts[i - from] = json;
        at += (i === 0 ? 0 : 1) + Buffer.byteLength(json);
        ends[i] = at;
      }
      chunks.push(Buffer.from(`${from === 0 ? '' : ','}${parts.join(',')}`));
      yield;
    }
    chunks.push(Buffer.from(']}'));
    return new ReviewBytes(Buffer.concat(chunks), head.length, ends, baseUrl);
  }

  /** The JSON of the first `count` reviews, comma-separated (the inside of an array), as a view of the dataset. */
  first(count: number): Buffer {
    return count === 0 ? this.dataset.subarray(0, 0) : this.dataset.subarray(this.start, this.ends[count - 1]);
  }

  /** Review i's JSON, as a view of the dataset. */
  review(i: number): Buffer {
    return this.dataset.subarray(i === 0 ? this.start : this.ends[i - 1]! + 1, this.ends[i]);
  }

  /** A digest of first(count), made once per count (there are at most as many counts as review dates). */
  digestOfFirst(count: number): string {
    let digest = this.prefixDigests.get(count);
    if (digest === undefined) {
      digest = createHash('sha256').update(this.first(count)).digest('base64url');
      this.prefixDigests.set(count, digest);
    }
    return digest;
  }
}

/** The kept index's first line, or null when it is not the JSON index() writes (then the bytes are made again, as for any that do not fit). */
function headerOf(line: string): { etag: string; start: number } | null {
  let header: unknown;
  try {
    header = JSON.parse(line);
  } catch {
    return null;
  }
  const { etag, start } = (header ?? {}) as { etag?: unknown; start?: unknown };
  return typeof etag === 'string' && Number.isSafeInteger(start) ? { etag, start: start as number } : null;
}

/** Bytes escaped per turn of the event loop: about 10 ms of work. */
const ESCAPE_CHUNK = 1 << 20;

/**
 * A JSON text as a JSON string literal (what an MCP resource's `text` holds), made a megabyte at
 * a time with the event loop free in between: escaping is per character, so the escaped chunks
 * joined are the escaped whole. The bytes are decoded a chunk at a time (a character split
 * between two chunks is held back to the next), never as one string of the whole document.
 */
export async function escapeAsJsonString(json: Buffer): Promise<Buffer> {
  const decoder = new StringDecoder('utf8');
  const parts: Buffer[] = [Buffer.from('"')];
  for (let at = 0; at < json.length; at += ESCAPE_CHUNK) {
    const text = decoder.write(json.subarray(at, at + ESCAPE_CHUNK));
    parts.push(Buffer.from(JSON.stringify(text).slice(1, -1)));
    if (at + ESCAPE_CHUNK < json.length) await yieldToLoop();
  }
  parts.push(Buffer.from(`${JSON.stringify(decoder.end()).slice(1, -1)}"`));
  return Buffer.concat(parts);
}
