/** The insights document as JSON bytes, made a chunk of per_review at a time, and the gzip form and meta a snapshot holds of it. */
import { gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { bodyTag } from './representation.js';
import type { Insights, InsightsOverview } from '../core/schema/insights.js';

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

/** What is read of an insights document without decompressing it, kept beside its gzip form: its identity's ETag and size, and everything but per_review. */
export interface InsightsMeta {
  etag: string;
  size: number;
  overview: InsightsOverview;
}

/**
 * A revision's insights as a snapshot holds them: the document's gzip coding (its identity,
 * 99% per_review, is streamed from it when asked for; a review's analysis is made again on
 * demand, the analysis being deterministic) and its meta.
 */
export interface HeldInsights {
  gzip: Buffer;
  meta: InsightsMeta;
}

/** Serialises, compresses and describes a document, the event loop free between steps. */
export async function holdInsights(doc: Insights, pause: () => Promise<void>): Promise<HeldInsights> {
  const json = await insightsJson(doc, pause);
  return held(doc, json, await packInsights(json));
}

/** The same at once, on the caller's turn of the event loop (a snapshot read before it was prepared). */
export function holdInsightsNow(doc: Insights): HeldInsights {
  const json = Buffer.from(JSON.stringify(doc));
  return held(doc, json, gzipSync(json, { level: 6 }));
}

function held(doc: Insights, json: Buffer, gzip: Buffer): HeldInsights {
  const rest: Partial<Insights> = { ...doc };
  delete rest.per_review;
  // As a restart reads it back: JSON's values only.
  const overview = JSON.parse(JSON.stringify(rest)) as InsightsOverview;
  return { gzip, meta: { etag: bodyTag([json]), size: json.length, overview } };
}

export function metaBytes(meta: InsightsMeta): Buffer {
  return Buffer.from(JSON.stringify(meta));
}

/** Meta as kept, or null when it is not what metaBytes wrote (then the document is made again). */
export function readMeta(kept: Buffer): InsightsMeta | null {
  try {
    const meta = JSON.parse(kept.toString('utf8')) as Partial<InsightsMeta>;
    if (typeof meta.etag === 'string' && Number.isSafeInteger(meta.size) && meta.overview && typeof meta.overview === 'object') return meta as InsightsMeta;
  } catch {
    // Not JSON: treated as not kept.
  }
  return null;
}
