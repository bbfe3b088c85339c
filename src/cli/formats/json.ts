/** Reads a JSON import file: the /reviews.json document or a bare array of reviews. */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { streamValues } from 'stream-json/streamers/stream-values.js';
import { ImportFileError, type ParsedImport } from './types.js';

/** The file does not parse as JSON (as opposed to JSON of the wrong shape): the import may say what else it looks like. */
export class NotJsonError extends ImportFileError {
  override name = 'NotJsonError';
}

/** The /reviews.json document ({ business, aggregate_rating?, reviews }) or a bare array of reviews. */
export function parseJsonImport(text: string): ParsedImport {
  let doc: unknown;
  try {
    // A byte order mark (Windows tools write one) is not JSON but says nothing against the file; the streamed path skips it too.
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new NotJsonError(`not valid JSON: ${(err as Error).message}`);
  }
  return shapeOf(doc);
}

/**
 * The same from a stream, for a file larger than one string can hold (V8's limit, about 512 MB:
 * a million reviews' export). The streaming parser gives no position, so an error says how far
 * the file had been read.
 */
export async function streamJsonImport(input: Readable): Promise<ParsedImport> {
  const docs: unknown[] = [];
  let read = 0;
  try {
    await pipeline(
      input,
      async function* count(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          read += chunk.length;
          yield chunk;
        }
      },
      streamValues.withParserAsStream(),
      async (values: AsyncIterable<{ value: unknown }>) => {
        for await (const { value } of values) docs.push(value);
      },
    );
  } catch (err) {
    // A read error (the file went away) or bytes that are not text are the file's, not its JSON's.
    if (err instanceof ImportFileError || (err as NodeJS.ErrnoException).code !== undefined) throw err;
    throw new NotJsonError(`not valid JSON: ${(err as Error).message} (within the first ${read.toLocaleString('en')} bytes)`);
  }
  // The streaming parser reads a sequence of values; a file is one document.
  if (docs.length !== 1) throw new NotJsonError(docs.length === 0 ? 'not valid JSON: the file holds no value' : 'not valid JSON: more than one value in the file');
  return shapeOf(docs[0]);
}

function shapeOf(doc: unknown): ParsedImport {
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
