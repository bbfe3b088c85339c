/** The insights document as JSON bytes, made a chunk of per_review at a time, and its kept (gzipped) form. */
import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Insights } from '../core/schema/insights.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

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

/** How a document is kept in the store: gzip at a fast level, made off the event loop. */
export function packInsights(json: Buffer): Promise<Buffer> {
  return gzipAsync(json, { level: 1 });
}

export function unpackInsights(packed: Buffer): Promise<Buffer> {
  return gunzipAsync(packed);
}
