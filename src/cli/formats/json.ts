/** Reads a JSON import file: the /reviews.json document or a bare array of reviews. */
import { ImportFileError, type ParsedImport } from './types.js';

/** The /reviews.json document ({ business, aggregate_rating?, reviews }) or a bare array of reviews. */
export function parseJsonImport(text: string): ParsedImport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ImportFileError(`not valid JSON: ${(err as Error).message}`);
  }
  const toRecords = (list: unknown[]) => list.map((value, i) => ({ where: `record ${i} (reviews[${i}])`, value }));
  if (Array.isArray(doc)) return { records: toRecords(doc) };
  if (doc !== null && typeof doc === 'object' && Array.isArray((doc as { reviews?: unknown }).reviews)) {
    const { business, reviews } = doc as { business?: unknown; reviews: unknown[] };
    // aggregate_rating is derived data: accepted so an export re-imports unchanged, then recomputed.
    return { business, records: toRecords(reviews) };
  }
  throw new ImportFileError('expected a JSON array of reviews or an object with a "reviews" array (the /reviews.json shape)');
}
