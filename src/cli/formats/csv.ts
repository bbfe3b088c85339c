/** Reads a CSV export of reviews (one review a row, named columns) into raw records. */
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { z } from 'zod';
import { DATE_RULE, type FieldSpellings } from '../../core/import-plan.js';
import { ReviewInputSchema } from '../../core/schema/review.js';
import { ImportFileError, type ParsedImport } from './types.js';

/** The columns a CSV file may have, in the order the docs list them; the owner reply is two columns. */
export const CSV_COLUMNS = [
  'id', 'author', 'author_avatar_url', 'rating', 'date', 'text', 'source', 'source_url', 'owner_reply_text', 'owner_reply_date', 'verified', 'source_id',
] as const;
type Column = (typeof CSV_COLUMNS)[number];

/** The columns a header must name: those of the review fields a record cannot leave out. */
const REQUIRED_CSV_COLUMNS = CSV_COLUMNS.filter((c) => {
  const field = (ReviewInputSchema.shape as Record<string, z.ZodType | undefined>)[c];
  return field !== undefined && !field.safeParse(undefined).success;
});

const TRUE = ['true', 'yes', 'y', '1'];
const FALSE = ['false', 'no', 'n', '0'];

/** Where CSV cells differ from review fields: the reply's two columns, and the words `verified` takes. */
export const CSV_SPELLINGS: FieldSpellings = {
  'owner_reply.text': { name: 'owner_reply_text' },
  'owner_reply.date': { name: 'owner_reply_date', accepted: `${DATE_RULE} (the reply's date, needed with owner_reply_text)` },
  verified: { accepted: `one of ${TRUE.map((t, i) => `${t}/${FALSE[i]}`).join(', ')} (any case), or empty for false` },
};

/** What may separate cells: commas, or semicolons (Excel writes them where the decimal mark is a comma) or tabs. */
const SEPARATORS = { ',': 'comma', ';': 'semicolon', '\t': 'tab' } as const;
export type CsvSeparator = keyof typeof SEPARATORS;

const isColumn = (name: string) => (CSV_COLUMNS as readonly string[]).includes(name);

/**
 * The separator of a file, told by its header row (the first line of `head`, the file's first
 * bytes as text): the one that splits it into the most known column names, commas on a tie.
 * One separator for the whole file, so a semicolon in a comma-separated text stays text.
 */
export function csvSeparator(head: string): CsvSeparator {
  const header = /^[\ufeff\r\n]*([^\r\n]*)/.exec(head)![1]!;
  const known = (separator: string) => header.split(separator).filter((c) => isColumn(c.replace(/^"(.*)"$/, '$1'))).length;
  return (Object.keys(SEPARATORS) as CsvSeparator[]).reduce((best, s) => (known(s) > known(best) ? s : best));
}

/** Line breaks as a reader counts lines: \r\n, \n or a lone \r. */
const LINE_BREAK = /\r\n|\n|\r/g;
const LEADING_BLANK_LINES = /^(?:\r\n|\n|\r)+/;
const breaks = (text: string) => text.match(LINE_BREAK)?.length ?? 0;

/**
 * A header row of review field names (owner reply as owner_reply_text and owner_reply_date).
 * Empty cells mean "not given"; values are converted only where the conversion is certain, so
 * anything odd reaches validation as written and is reported with its record number and line.
 * Read as a stream, a record at a time: a file may be larger than one string can hold.
 */
export async function parseCsvImport(input: Readable, separator: CsvSeparator = ','): Promise<ParsedImport> {
  const records: ParsedImport['records'] = [];
  let header: string[] | undefined;
  let count = 0;
  // A quoted cell may hold line breaks, so a row's lines are counted from the raw text. Rows are
  // made as the parser goes (on_record), ahead of the rows taken: an error in the parser then
  // knows the line it is at, and one in the header comes before any row's.
  let line = 1;
  const rows = parse({
    bom: true,
    delimiter: separator,
    skip_empty_lines: true,
    trim: false,
    raw: true,
    relax_column_count: false,
    on_record: ({ record, raw }: { record: string[]; raw: string }) => {
      const first = line + breaks(raw.match(LEADING_BLANK_LINES)?.[0] ?? '');
      line += breaks(raw);
      const last = raw.endsWith('\n') || raw.endsWith('\r') ? line - 1 : line;
      if (!header) {
        header = checkedHeader(record);
        // Nothing returned: the header row is left out of the rows.
        return undefined;
      }
      return recordOf(header, record, `record ${++count} (${first === last ? `CSV line ${first}` : `CSV lines ${first}-${last}`})`);
    },
  });
  // pipe() does not pass a read error on: it ends the rows with it.
  input.on('error', (err) => rows.destroy(err));
  try {
    for await (const record of input.pipe(rows) as AsyncIterable<ParsedImport['records'][number]>) records.push(record);
  } catch (err) {
    if (err instanceof CsvError) throw notCsv(err, { line, columns: header?.length ?? 0, separator });
    throw err;
  } finally {
    input.destroy();
  }
  // Only a file of blank lines has no header row: openImportFile refuses those as empty before.
  if (!header) throw new ImportFileError(`CSV file has no header row: its first line must name the columns, e.g. ${REQUIRED_CSV_COLUMNS.join(',')}`);
  return { spellings: CSV_SPELLINGS, records };
}

/**
 * The parser's error as the operator should hear it: the file is not valid CSV, where, and what
 * to look for. `line` is where the row it could not finish began (its leading blank lines aside);
 * `columns`, the header's cells.
 */
function notCsv(err: CsvError, { line, columns, separator }: { line: number; columns: number; separator: CsvSeparator }): ImportFileError {
  // What quoting must look like, said wherever a quote may be the problem.
  const quoting = `a cell holding a ${SEPARATORS[separator]}, a line break or a double quote is written inside double quotes, and a double quote inside it is written twice: ""`;
  const raw = typeof err.raw === 'string' ? err.raw : '';
  const start = line + breaks(raw.match(LEADING_BLANK_LINES)?.[0] ?? '');
  // The line the parser stopped on: the row's start and the line breaks it read in it (a quoted cell may hold some).
  const at = line + breaks(raw.replace(/(?:\r\n|\n|\r)$/, ''));
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ImportFileError(`not valid CSV: a double quote opened in the row starting on line ${start} is never closed, so the rest of the file would be one cell; check that row for a missing closing " (${quoting})`);
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new ImportFileError(`not valid CSV: on line ${at} a quoted cell goes on after its closing double quote; check that line: ${quoting}`);
    case 'INVALID_OPENING_QUOTE':
      return new ImportFileError(`not valid CSV: on line ${at} a double quote is inside a cell that does not start with one; check that line: ${quoting}`);
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const cells = Array.isArray(err.record) ? err.record.length : 0;
      const fix = cells > columns ? `check it for a text holding a ${SEPARATORS[separator]} outside double quotes (${quoting})` : `every row needs a cell for each column, empty ones too (two ${SEPARATORS[separator]}s in a row)`;
      return new ImportFileError(`not valid CSV: the row on ${start === at ? `line ${start}` : `lines ${start}-${at}`} has ${cells} cells and the header ${columns}; ${fix}`);
    }
    default:
      return new ImportFileError(`not valid CSV: on line ${at}: ${err.message}`);
  }
}

/** The known column a header cell means when it differs only in case, spaces or hyphens ("Owner Reply Text"). */
const meant = (cell: string) => {
  const name = cell.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return isColumn(name) ? name : undefined;
};

/** A header cell as a message quotes it: cut short (a first line that is not a header may be long), with the column it may mean. */
const shown = (cell: string) => {
  const near = meant(cell);
  return `${cell.length > 40 ? `${cell.slice(0, 37)}...` : cell}${near ? ` (${near}?)` : ''}`;
};

/** The header row checked before any row is read: known column names, each once, the required ones all there. */
function checkedHeader(header: string[]): string[] {
  const unknown = header.filter((h) => !isColumn(h));
  if (!header.some((h) => meant(h) !== undefined)) {
    throw new ImportFileError(`CSV file has no header row: its first line (${header.map(shown).join(', ')}) names no known column; the first line must name the columns, e.g. ${REQUIRED_CSV_COLUMNS.join(',')} (known: ${CSV_COLUMNS.join(', ')})`);
  }
  if (unknown.length) throw new ImportFileError(`CSV header has unknown column(s): ${unknown.map(shown).join(', ')}; known: ${CSV_COLUMNS.join(', ')}`);
  const twice = header.filter((h, i) => header.indexOf(h) !== i);
  if (twice.length) throw new ImportFileError(`CSV header names column(s) more than once: ${[...new Set(twice)].join(', ')}`);
  const missing = REQUIRED_CSV_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) {
    const names = missing.map((c) => `"${c}"`);
    const list = names.length === 1 ? `${names[0]} column` : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!} columns`;
    throw new ImportFileError(`CSV header has no ${list}, which every review needs; nothing was imported (required: ${REQUIRED_CSV_COLUMNS.join(', ')}; found: ${header.join(', ')})`);
  }
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
