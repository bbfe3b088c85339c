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
  // Counted from 1 like CSV records, with the 0-based JSON path beside it: "record 2 (reviews[1])".
  const toRecords = (list: unknown[], path: string) => list.map((value, i) => ({ where: `record ${i + 1} (${path}[${i}])`, value }));
  if (Array.isArray(doc)) return { records: toRecords(doc, '') };
  if (doc !== null && typeof doc === 'object' && Array.isArray((doc as { reviews?: unknown }).reviews)) {
    const { business, reviews } = doc as { business?: unknown; reviews: unknown[] };
    // aggregate_rating is derived data: accepted so an export re-imports unchanged, then recomputed.
    return { business, records: toRecords(reviews, 'reviews') };
  }
  throw new ImportFileError('expected a JSON array of reviews or an object with a "reviews" array (the /reviews.json shape)');
}
