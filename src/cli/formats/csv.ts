/** Reads a CSV export of reviews (one review a row, named columns) into raw records. */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { DATE_RULE, type FieldSpellings } from '../../core/import-plan.js';
import { ImportFileError, type ParsedImport } from './types.js';

/** The columns a CSV file may have, in the order the docs list them; the owner reply is two columns. */
export const CSV_COLUMNS = [
  'id', 'author', 'author_avatar_url', 'rating', 'date', 'text', 'source', 'source_url', 'owner_reply_text', 'owner_reply_date', 'verified', 'source_id',
] as const;
type Column = (typeof CSV_COLUMNS)[number];

const TRUE = ['true', 'yes', 'y', '1'];
const FALSE = ['false', 'no', 'n', '0'];

/** Where CSV cells differ from review fields: the reply's two columns, and the words `verified` takes. */
export const CSV_SPELLINGS: FieldSpellings = {
  'owner_reply.text': { name: 'owner_reply_text' },
  'owner_reply.date': { name: 'owner_reply_date', accepted: `${DATE_RULE} (the reply's date, needed with owner_reply_text)` },
  verified: { accepted: `one of ${TRUE.map((t, i) => `${t}/${FALSE[i]}`).join(', ')} (any case), or empty for false` },
};

/** Line breaks as a reader counts lines: \r\n, \n or a lone \r. */
const LINE_BREAK = /\r\n|\n|\r/g;
const LEADING_BLANK_LINES = /^(?:\r\n|\n|\r)+/;

/**
 * A header row of review field names (owner reply as owner_reply_text and owner_reply_date).
 * Empty cells mean "not given"; values are converted only where the conversion is certain, so
 * anything odd reaches validation as written and is reported with its record number and line.
 * Read as a stream, a record at a time: a file may be larger than one string can hold.
 */
export async function parseCsvImport(input: Readable): Promise<ParsedImport> {
  const records: ParsedImport['records'] = [];
  let header: string[] | undefined;
  // A quoted cell may hold line breaks, so a record's line is counted from the raw text read so far, not from its place.
  let line = 1;
  const rows = parse({ bom: true, skip_empty_lines: true, trim: false, raw: true, relax_column_count: false });
  // pipe() does not pass a read error on: it ends the rows with it.
  input.on('error', (err) => rows.destroy(err));
  try {
    for await (const { record, raw } of input.pipe(rows) as AsyncIterable<{ record: string[]; raw: string }>) {
      const first = line + (raw.match(LEADING_BLANK_LINES)?.[0].match(LINE_BREAK)?.length ?? 0);
      line += raw.match(LINE_BREAK)?.length ?? 0;
      const last = raw.endsWith('\n') || raw.endsWith('\r') ? line - 1 : line;
      if (header) records.push(recordOf(header, record, `record ${records.length + 1} (${first === last ? `CSV line ${first}` : `CSV lines ${first}-${last}`})`));
      else header = checkedHeader(record);
    }
  } catch (err) {
    if (err instanceof ImportFileError || (err as NodeJS.ErrnoException).code?.startsWith('CSV_') !== true) throw err;
    throw new ImportFileError(`CSV could not be read: ${(err as Error).message}`);
  } finally {
    input.destroy();
  }
  return header ? { spellings: CSV_SPELLINGS, records } : { records: [] };
}

function checkedHeader(header: string[]): string[] {
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) throw new ImportFileError(`CSV header has unknown column(s): ${unknown.join(', ')}; known: ${CSV_COLUMNS.join(', ')}`);
  const twice = header.filter((h, i) => header.indexOf(h) !== i);
  if (twice.length) throw new ImportFileError(`CSV header names column(s) more than once: ${[...new Set(twice)].join(', ')}`);
  return header;
}

function recordOf(header: string[], cells: string[], where: string): ParsedImport['records'][number] {
  const record = Object.fromEntries(header.map((h, k) => [h, cells[k]])) as Partial<Record<Column, string>>;
  const cell = (c: Column) => (record[c] === undefined || record[c] === '' ? undefined : record[c]);
  const value: Record<string, unknown> = {};
  for (const c of ['id', 'author', 'author_avatar_url', 'date', 'text', 'source', 'source_url', 'source_id'] as const) {
    const v = cell(c);
    if (v !== undefined) value[c] = v;
  }
  const rating = cell('rating');
  if (rating !== undefined) value.rating = /^\s*\d+\s*$/.test(rating) ? Number(rating) : rating;
  const verified = cell('verified');
  const word = verified?.trim().toLowerCase();
  // Any other word goes on as written, for validation to refuse with the words accepted.
  if (verified !== undefined) value.verified = TRUE.includes(word!) ? true : FALSE.includes(word!) ? false : verified;
  const replyText = cell('owner_reply_text');
  const replyDate = cell('owner_reply_date');
  if (replyText !== undefined || replyDate !== undefined) value.owner_reply = { text: replyText, date: replyDate };
  return { where, value };
}
