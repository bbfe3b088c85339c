/** Reads a CSV export of reviews (one review a row, named columns) into raw records. */
import { parse } from 'csv-parse/sync';
import { ImportFileError, type ParsedImport } from './types.js';

const COLUMNS = [
  'id', 'author', 'author_avatar_url', 'rating', 'date', 'text', 'source', 'source_url', 'owner_reply_text', 'owner_reply_date', 'verified', 'source_id',
] as const;
type Column = (typeof COLUMNS)[number];

const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);

/**
 * A header row of review field names (owner reply as owner_reply_text and owner_reply_date).
 * Empty cells mean "not given"; values are converted only where the conversion is certain, so
 * anything odd reaches validation as written and is reported with its CSV line.
 */
export function parseCsvImport(text: string): ParsedImport {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: false, info: true, relax_column_count: false });
  } catch (err) {
    throw new ImportFileError(`CSV could not be read: ${(err as Error).message}`);
  }
  if (rows.length === 0) return { records: [] };
  const header = Object.keys(rows[0]!.record);
  const unknown = header.filter((h) => !(COLUMNS as readonly string[]).includes(h));
  if (unknown.length) throw new ImportFileError(`CSV header has unknown column(s): ${unknown.join(', ')}; known: ${COLUMNS.join(', ')}`);
  return {
    records: rows.map(({ record, info }) => {
      const cell = (c: Column) => (record[c] === undefined || record[c] === '' ? undefined : record[c]);
      const value: Record<string, unknown> = {};
      for (const c of ['id', 'author', 'author_avatar_url', 'date', 'text', 'source', 'source_url', 'source_id'] as const) {
        const v = cell(c);
        if (v !== undefined) value[c] = v;
      }
      const rating = cell('rating');
      if (rating !== undefined) value.rating = /^\s*\d+\s*$/.test(rating) ? Number(rating) : rating;
      const verified = cell('verified')?.trim().toLowerCase();
      if (verified !== undefined) value.verified = TRUE.has(verified) ? true : FALSE.has(verified) ? false : verified;
      const replyText = cell('owner_reply_text');
      const replyDate = cell('owner_reply_date');
      if (replyText !== undefined || replyDate !== undefined) value.owner_reply = { text: replyText, date: replyDate };
      return { where: `CSV line ${info.lines}`, value };
    }),
  };
}
