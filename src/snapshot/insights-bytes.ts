/** The insights document as JSON bytes, made a chunk of per_review at a time, its kept (gzipped) form, and reading it back without parsing per_review. */
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { gunzipWhole } from './compressor.js';
import type { Insights, InsightsOverview, PerReview } from '../core/schema/insights.js';

const gzipAsync = promisify(gzip);

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

/**
 * How a document is kept in the store: gzip at the level /insights.json is served with, made off
 * the event loop, so the kept bytes are also the served gzip coding (a restart does not compress
 * 46 MB again at 100k reviews, and every replica sends the same bytes for the same tag).
 */
export function packInsights(json: Buffer): Promise<Buffer> {
  return gzipAsync(json, { level: 6 });
}

export function unpackInsights(packed: Buffer): Promise<Buffer> {
  return gunzipWhole(packed);
}

/** Review ids located per step of reading a kept document: a few milliseconds of work. */
const LOCATE_CHUNK = 10_000;

/**
 * An insights document held as its JSON bytes (what /insights.json serves), with everything but
 * per_review parsed (`overview`) and per_review left unparsed: a review's analysis is located in
 * the bytes and parsed when asked for. Parsing per_review whole (99% of the document) took seconds
 * at 100k reviews and held every entry as objects besides the bytes.
 */
export class InsightsBytes {
  private constructor(
    readonly json: Buffer,
    readonly overview: InsightsOverview,
    /** At 2i and 2i + 1: where the analysis of the review at position i (of the ids it was read with) starts and ends in `json` (-1 when it has none). */
    private readonly spans: Float64Array,
  ) {}

  /** Reads a document made by insightsJson, locating the analyses of `ids` a chunk at a time with `pause` awaited between chunks. */
  static async read(json: Buffer, ids: readonly string[], pause: () => Promise<void>): Promise<InsightsBytes> {
    const steps = InsightsBytes.steps(json, ids);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await pause();
    }
  }

  /** Read at once, on the caller's turn of the event loop. */
  static readNow(json: Buffer, ids: readonly string[]): InsightsBytes {
    const steps = InsightsBytes.steps(json, ids);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /**
   * Reads a document with the spans spansBytes() gave for it (kept in the store beside it), or
   * null when they do not fit it: each span must lie within per_review and hold a JSON object.
   */
  static withSpans(json: Buffer, ids: readonly string[], kept: Buffer): InsightsBytes | null {
    if (kept.length !== ids.length * 16) return null;
    const { open, close, overview } = InsightsBytes.outer(json);
    const spans = new Float64Array(ids.length * 2);
    new Uint8Array(spans.buffer).set(kept);
    for (let i = 0; i < spans.length; i += 2) {
      const from = spans[i]!;
      const to = spans[i + 1]!;
      if (from === -1 && to === -1) continue;
      if (!(from > open && to > from && to <= close) || json[from] !== 0x7b || json[to - 1] !== 0x7d) return null;
    }
    return new InsightsBytes(json, overview, spans);
  }

  /** Where each analysis lies, as bytes to keep beside the document (see withSpans). */
  spansBytes(): Buffer {
    return Buffer.from(this.spans.buffer, this.spans.byteOffset, this.spans.byteLength);
  }

  /** Where per_review's object opens and closes, and the document without it, parsed. */
  private static outer(json: Buffer): { open: number; close: number; overview: InsightsOverview } {
    // `"per_review":{` and `,"faq":[` can only be the top-level keys: inside a JSON string every quote is escaped.
    const open = json.indexOf('"per_review":{') + '"per_review":'.length;
    const close = json.lastIndexOf(',"faq":[') - 1;
    if (open < '"per_review":'.length || close < open || json[close] !== 0x7d) throw new Error('not an insights document: per_review not found');
    const rest = Buffer.concat([json.subarray(0, open + 1), json.subarray(close)]);
    const overview = JSON.parse(rest.toString('utf8')) as Partial<Insights>;
    delete overview.per_review;
    return { open, close, overview: overview as InsightsOverview };
  }

  private static *steps(json: Buffer, ids: readonly string[]): Generator<void, InsightsBytes> {
    const { open, close, overview } = InsightsBytes.outer(json);
    yield;
    // Entries are `"id":{...}` in the order of the reviews analysed; inside an entry no object follows
    // a key that could be a review id, so `"id":{` is that review's entry wherever it is found.
    const starts: { i: number; at: number; from: number }[] = [];
    let hint = open + 1;
    for (let i = 0; i < ids.length; i++) {
      const key = `${JSON.stringify(ids[i])}:{`;
      let at = json.indexOf(key, hint);
      if (at < 0 || at > close) at = json.indexOf(key, open + 1);
      if (at >= 0 && at < close) {
        starts.push({ i, at, from: at + Buffer.byteLength(key) - 1 });
        hint = at + key.length;
      }
      if (i % LOCATE_CHUNK === LOCATE_CHUNK - 1) yield;
    }
    starts.sort((a, b) => a.at - b.at);
    const spans = new Float64Array(ids.length * 2).fill(-1);
    // An entry ends where the next one's key starts (less the comma), the last where per_review closes.
    starts.forEach((s, k) => {
      spans[2 * s.i] = s.from;
      spans[2 * s.i + 1] = k + 1 < starts.length ? starts[k + 1]!.at - 1 : close;
    });
    return new InsightsBytes(json, overview, spans);
  }

  /** The analysis of the review at position `i` of the ids it was read with, parsed from the bytes; undefined when the document has none for it. */
  analysis(i: number): PerReview | undefined {
    if (!(this.spans[2 * i]! >= 0)) return undefined;
    return JSON.parse(this.json.toString('utf8', this.spans[2 * i], this.spans[2 * i + 1])) as PerReview;
  }
}
