/** The insights document as JSON bytes, made a chunk of per_review at a time, and the gzip form and meta a snapshot holds of it. */
import { gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { bodyTag } from './representation.js';
import type { Insights, InsightsOverview, PerReview } from '../core/schema/insights.js';

/** One aspect a review judges, and how (per_review's `aspects` entry less its phrases). */
export interface ReviewAspect {
  aspect: string;
  polarity: PerReview['aspects'][number]['polarity'];
}

type Polarity = ReviewAspect['polarity'];

const gzipAsync = promisify(gzip);

/** The gzip level /insights.json is kept and served with. */
const GZIP_LEVEL = { level: 6 };

/** per_review entries serialised per step: a few milliseconds of work. */
const CHUNK = 2000;

/** Stands in for per_review in the outer document; the JSON `"per_review":` before it can only be that key, never text inside a string. */
const MARK = '\u0000per_review\u0000';

/**
 * Byte for byte JSON.stringify(doc), with `pause` awaited between chunks of per_review (99% of
 * the document at scale), so the event loop stays free while a large document is serialised.
 */
export async function insightsJson(doc: Insights, pause: () => Promise<void>): Promise<Buffer> {
  const outer = JSON.stringify({ ...doc, per_review: MARK });
  const marked = `"per_review":${JSON.stringify(MARK)}`;
  const at = outer.indexOf(marked);
  const parts: Buffer[] = [Buffer.from(`${outer.slice(0, at)}"per_review":{`)];
  const ids = Object.keys(doc.per_review);
  for (let from = 0; from < ids.length; from += CHUNK) {
    const chunk = ids.slice(from, from + CHUNK).map((id) => `${JSON.stringify(id)}:${JSON.stringify(doc.per_review[id])}`);
    parts.push(Buffer.from(`${from === 0 ? '' : ','}${chunk.join(',')}`));
    await pause();
  }
  parts.push(Buffer.from(`}${outer.slice(at + marked.length)}`));
  return Buffer.concat(parts);
}

/** Gzip at the level /insights.json is served with, off the event loop: the kept bytes are also the served gzip coding (every replica sends the same bytes for the same tag). */
function packInsights(json: Buffer): Promise<Buffer> {
  return gzipAsync(json, GZIP_LEVEL);
}

const POLARITIES: readonly Polarity[] = ['positive', 'negative', 'neutral'];

/**
 * Every review's aspects and their polarity (per_review's `aspects` less the phrases), a few
 * bytes a review, in the order of the reviews analysed: what the widget counts over any scope,
 * without analysing a review again.
 */
export class AspectHits {
  private constructor(
    private readonly aspects: readonly string[],
    /** Per review, how many hits, then each hit as aspect index * 3 + polarity index. */
    private readonly codes: Uint16Array,
    /** Where each review's hits start in `codes` (its count is just before). */
    private readonly starts: Uint32Array,
  ) {}

  static of(perReview: Insights['per_review']): AspectHits {
    const aspects: string[] = [];
    const index = new Map<string, number>();
    const codes: number[] = [];
    const starts: number[] = [];
    for (const entry of Object.values(perReview)) {
      codes.push(entry.aspects.length);
      starts.push(codes.length);
      for (const hit of entry.aspects) {
        let k = index.get(hit.aspect);
        if (k === undefined) index.set(hit.aspect, (k = aspects.push(hit.aspect) - 1));
        codes.push(k * 3 + POLARITIES.indexOf(hit.polarity));
      }
    }
    return new AspectHits(aspects, Uint16Array.from(codes), Uint32Array.from(starts));
  }

  /** The aspects of the review at position `i` of those analysed. */
  at(i: number): ReviewAspect[] {
    const from = this.starts[i]!;
    const hits: ReviewAspect[] = [];
    for (let k = from; k < from + this.codes[from - 1]!; k++) hits.push({ aspect: this.aspects[Math.floor(this.codes[k]! / 3)]!, polarity: POLARITIES[this.codes[k]! % 3]! });
    return hits;
  }

  toJSON(): { aspects: readonly string[]; codes: string } {
    return { aspects: this.aspects, codes: Buffer.from(this.codes.buffer, this.codes.byteOffset, this.codes.byteLength).toString('base64') };
  }

  /** Read from toJSON's form; null when it does not hold `reviews` reviews whole. */
  static read(kept: unknown, reviews: number): AspectHits | null {
    const k = kept as { aspects?: unknown; codes?: unknown } | null;
    if (!k || !Array.isArray(k.aspects) || !k.aspects.every((a) => typeof a === 'string') || typeof k.codes !== 'string') return null;
    const bytes = Buffer.from(k.codes, 'base64');
    if (bytes.length % 2 !== 0) return null;
    const codes = new Uint16Array(bytes.length / 2);
    new Uint8Array(codes.buffer).set(bytes);
    const starts = new Uint32Array(reviews);
    let at = 0;
    for (let r = 0; r < reviews; r++) {
      if (at >= codes.length) return null;
      const n = codes[at]!;
      starts[r] = at + 1;
      for (let j = at + 1; j <= at + n; j++) if (j >= codes.length || Math.floor(codes[j]! / 3) >= k.aspects.length) return null;
      at += 1 + n;
    }
    return at === codes.length ? new AspectHits(k.aspects as string[], codes, starts) : null;
  }
}

/**
 * A revision's insights as a snapshot holds them: the document's gzip coding (its identity,
 * 99% per_review, is streamed from it when asked for), what is read without decompressing it
 * (the identity's ETag and size, everything but per_review) and every review's aspects (a
 * review's whole analysis is made again on demand: the analysis is deterministic).
 */
export interface HeldInsights {
  gzip: Buffer;
  etag: string;
  size: number;
  overview: InsightsOverview;
  hits: AspectHits;
}

/** Serialises, compresses and describes a document, the event loop free between steps. */
export async function holdInsights(doc: Insights, pause: () => Promise<void>): Promise<HeldInsights> {
  const json = await insightsJson(doc, pause);
  return held(doc, json, await packInsights(json));
}

/** The same at once, on the caller's turn of the event loop (a snapshot read before it was prepared). */
export function holdInsightsNow(doc: Insights): HeldInsights {
  const json = Buffer.from(JSON.stringify(doc));
  return held(doc, json, gzipSync(json, GZIP_LEVEL));
}

function held(doc: Insights, json: Buffer, gzip: Buffer): HeldInsights {
  const rest: Partial<Insights> = { ...doc };
  delete rest.per_review;
  // As a restart reads it back: JSON's values only.
  const overview = JSON.parse(JSON.stringify(rest)) as InsightsOverview;
  return { gzip, etag: bodyTag([json]), size: json.length, overview, hits: AspectHits.of(doc.per_review) };
}

/**
 * How the store keeps them, as one entry (so no reader sees one part without the other): the
 * length of a JSON head (ETag, size, overview, hits), the head, then the gzip bytes.
 */
export function keptInsights(h: HeldInsights): Buffer {
  const head = Buffer.from(JSON.stringify({ etag: h.etag, size: h.size, overview: h.overview, hits: h.hits }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([length, head, h.gzip]);
}

/**
 * Read back from keptInsights' bytes for a revision of `reviews` reviews; null when they are not
 * that whole (then the document is made again): a head that does not parse, hits of another
 * number of reviews, or gzip bytes whose trailer does not give the identity's size.
 */
export function readKeptInsights(kept: Buffer, reviews: number): HeldInsights | null {
  if (kept.length < 4) return null;
  const headLength = kept.readUInt32LE(0);
  if (4 + headLength + 18 > kept.length) return null;
  let head: { etag?: unknown; size?: unknown; overview?: unknown; hits?: unknown };
  try {
    head = JSON.parse(kept.toString('utf8', 4, 4 + headLength)) as typeof head;
  } catch {
    return null;
  }
  const { etag, size, overview } = head;
  if (typeof etag !== 'string' || typeof size !== 'number' || !Number.isSafeInteger(size) || !overview || typeof overview !== 'object') return null;
  const hits = AspectHits.read(head.hits, reviews);
  // Copied out, so the head's bytes are not held with it.
  const gzip = Buffer.from(kept.subarray(4 + headLength));
  // ISIZE, the identity's length modulo 2^32 (RFC 1952), and the magic bytes: a cut or foreign body does not pass.
  if (!hits || gzip[0] !== 0x1f || gzip[1] !== 0x8b || gzip.readUInt32LE(gzip.length - 4) !== size % 2 ** 32) return null;
  return { gzip, etag, size, overview: overview as InsightsOverview, hits };
}
