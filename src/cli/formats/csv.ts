/** Reads a CSV export of reviews (one review a row, named columns) into raw records. */
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { z } from 'zod';
import { DATE_RULE, type FieldSpelling, type FieldSpellings } from '../../core/import-plan.js';
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

/** How a file's cells are laid out: the separator, and whether a first line such as `sep=;` (Excel writes and reads one) named it. */
export interface CsvLayout {
  separator: CsvSeparator;
  sepLine: boolean;
}

const isColumn = (name: string): name is Column => (CSV_COLUMNS as readonly string[]).includes(name);

/**
 * The column a header cell names: in any case, spaces around it aside, and spaces or hyphens
 * between its words standing for the underscores (spreadsheet exports capitalise names and
 * write "Owner Reply Text"; people type spaces after commas).
 */
function columnOf(cell: string): Column | undefined {
  const name = cell.trim().toLowerCase().replace(/[\s_-]+/g, '_');
  return isColumn(name) ? name : undefined;
}

/** Excel's line naming the separator, first in the file (after a byte order mark). */
const SEP_LINE = /^\ufeff?sep=([^\r\n]*)(?:\r\n|\n|\r|$)/i;

/** The first line of a text, a byte order mark and blank lines before it aside. */
const firstLine = (text: string) => /^[\ufeff\r\n]*([^\r\n]*)/.exec(text)![1]!;

/** How many of a line's cells, split at `separator`, name known columns (double quotes around a name aside). */
const knownCells = (line: string, separator: string) => line.split(separator).filter((c) => columnOf(c.trim().replace(/^"(.*)"$/, '$1')) !== undefined).length;

/** The separator that splits a header line into the most known column names, commas on a tie. */
const likeliest = (line: string) => (Object.keys(SEPARATORS) as CsvSeparator[]).reduce((best, s) => (knownCells(line, s) > knownCells(line, best) ? s : best));

/**
 * The layout of a file, told by its first bytes as text (`head`): a `sep=` first line names
 * the separator; without one, the header row tells it (likeliest). One separator for the whole
 * file, so a semicolon in a comma-separated text stays text.
 */
export function csvLayout(head: string): CsvLayout {
  const sep = SEP_LINE.exec(head);
  if (!sep) return { separator: likeliest(firstLine(head)), sepLine: false };
  const named = sep[1]!;
  if (!Object.hasOwn(SEPARATORS, named)) {
    throw new ImportFileError(`the CSV file's first line "sep=${named}" names ${JSON.stringify(named)} as the separator; cells may be separated only by commas, semicolons or tabs: save the file with one of those`);
  }
  return { separator: named as CsvSeparator, sepLine: true };
}

/**
 * What a text looks like when its first line (after a `sep=` line) names at least two known
 * columns with one separator between them, as a delimited file's header row does: "CSV" or
 * "tab-separated text". Undefined for any other text: a JSON file's first line never splits so.
 */
export function delimitedKind(head: string): string | undefined {
  const line = firstLine(head.replace(SEP_LINE, ''));
  const separator = likeliest(line);
  if (knownCells(line, separator) < 2) return undefined;
  return separator === '\t' ? 'tab-separated text' : 'CSV';
}

/** Line breaks as a reader counts lines: \r\n, \n or a lone \r. */
const LINE_BREAK = /\r\n|\n|\r/g;
/** Lines of nothing, or of spaces and tabs (trimmed to nothing), that the parser skips and puts at the start of the next row's raw text. */
const LEADING_BLANK_LINES = /^(?:[ \t\f]*(?:\r\n|\n|\r))+/;
const breaks = (text: string) => text.match(LINE_BREAK)?.length ?? 0;

/**
 * A header row of review field names (owner reply as owner_reply_text and owner_reply_date),
 * after a `sep=` line if the layout has one.
 * Empty cells (or white space alone) mean "not given"; values are converted only where the
 * conversion is certain, so anything odd reaches validation as written (the white space around
 * it aside) and is reported with its record number and line.
 * Read as a stream, a record at a time: a file may be larger than one string can hold.
 */
export async function parseCsvImport(input: Readable, { separator, sepLine }: CsvLayout = { separator: ',', sepLine: false }): Promise<ParsedImport> {
  const records: ParsedImport['records'] = [];
  let header: Header | undefined;
  let count = 0;
  // A quoted cell may hold line breaks, so a row's lines are counted from the raw text. Rows are
  // made as the parser goes (on_record), ahead of the rows taken: an error in the parser then
  // knows the line it is at, and one in the header comes before any row's. The parser skips a
  // sep= line (from_line) without a record for it.
  let line = sepLine ? 2 : 1;
  const rows = parse({
    bom: true,
    delimiter: separator,
    from_line: line,
    skip_empty_lines: true,
    // Spaces and tabs around a separator are no part of a cell: people type a space after a
    // comma, before a quoted text too (`Ann, 5, "Quick, tidy"`). Inside double quotes a text
    // stays as written (its ends are trimmed when it is read into a record).
    trim: true,
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
    if (err instanceof CsvError) throw notCsv(err, { line, columns: header?.columns.length ?? 0, separator });
    throw err;
  } finally {
    input.destroy();
  }
  // Only a file of blank lines has no header row: openImportFile refuses those as empty before.
  if (!header) throw new ImportFileError(`CSV file has no header row: its first line must name the columns, e.g. ${REQUIRED_CSV_COLUMNS.join(',')}`);
  return { spellings: header.spellings, records };
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
    // The second is what the parser says instead of the first where it trims around separators.
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
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

/** A cell as a message quotes it: cut short (a first line that is not a header may be long). */
const cut = (cell: string) => (cell.length > 40 ? `${cell.slice(0, 37)}...` : cell);

/**
 * How a header writes a column it names more than once, unless every cell writes the column's
 * own name (in any case): "owner_reply_text" and "Owner Reply Text", or "Owner Reply Text" and
 * "owner reply text", read alike, which the operator may not expect.
 */
function spelt(column: Column, names: string[], columns: (Column | undefined)[]): string {
  const written = [...new Set(names.filter((_, i) => columns[i] === column))];
  if (written.every((n) => n.trim().toLowerCase() === column)) return '';
  return ` (as ${written.map((n) => `"${cut(n)}"`).join(' and ')}: spaces and hyphens between words read as underscores)`;
}

/** The header row read: the column under each cell (undefined under an empty one, whose cells must all be empty too) and the file's spellings of the fields. */
interface Header {
  columns: (Column | undefined)[];
  spellings: FieldSpellings;
}

/** The review field a column fills where its name differs (owner_reply_text fills owner_reply.text). */
const fieldOf = (column: Column) => Object.entries(CSV_SPELLINGS).find(([, s]) => s?.name === column)?.[0] ?? column;

/**
 * The header row checked before any row is read: known column names (as columnOf reads them),
 * each once, the required ones all there. Empty cells are left out, as a spreadsheet leaves
 * them after the last column. Errors name the fields as the file does.
 */
function checkedHeader(cells: string[]): Header {
  const names = cells.map((c) => c.trim());
  const columns = names.map(columnOf);
  if (columns.every((c) => c === undefined)) {
    throw new ImportFileError(`CSV file has no header row: its first line (${names.map(cut).join(', ')}) names no known column; the first line must name the columns, e.g. ${REQUIRED_CSV_COLUMNS.join(',')} (known: ${CSV_COLUMNS.join(', ')})`);
  }
  const unknown = names.filter((h, i) => h !== '' && columns[i] === undefined);
  if (unknown.length) throw new ImportFileError(`CSV header has unknown column(s): ${unknown.map(cut).join(', ')}; known: ${CSV_COLUMNS.join(', ')}`);
  const named = columns.filter((c) => c !== undefined);
  const twice = [...new Set(named)].filter((c) => named.indexOf(c) !== named.lastIndexOf(c));
  if (twice.length) throw new ImportFileError(`CSV header names column(s) more than once: ${twice.map((c) => `${c}${spelt(c, names, columns)}`).join(', ')}`);
  const missing = REQUIRED_CSV_COLUMNS.filter((c) => !named.includes(c));
  if (missing.length) {
    const list = missing.map((c) => `"${c}"`);
    const what = list.length === 1 ? `${list[0]} column` : `${list.slice(0, -1).join(', ')} and ${list.at(-1)!} columns`;
    throw new ImportFileError(`CSV header has no ${what}, which every review needs; nothing was imported (required: ${REQUIRED_CSV_COLUMNS.join(', ')}; found: ${names.filter((h) => h !== '').join(', ')})`);
  }
  const spellings: Record<string, FieldSpelling | undefined> = { ...CSV_SPELLINGS };
  columns.forEach((c, i) => {
    if (c !== undefined && names[i] !== c) spellings[fieldOf(c)] = { ...CSV_SPELLINGS[fieldOf(c)], name: names[i] };
  });
  return { columns, spellings };
}

function recordOf(header: Header, cells: string[], where: string): ParsedImport['records'][number] {
  const record: Partial<Record<Column, string>> = {};
  header.columns.forEach((c, k) => {
    if (c !== undefined) record[c] = cells[k];
    else if (cells[k]!.trim() !== '') {
      throw new ImportFileError(
        `CSV column ${k + 1} has no name in the header row, but ${where} has ${JSON.stringify(cut(cells[k]!))} in it; name the column in the header row (known: ${CSV_COLUMNS.join(', ')}) or empty its cells (a column with no name is left out only when all its cells are empty)`,
      );
    }
  });
  // Every cell without the white space at its ends: the parser trims only around double quotes
  // and only ASCII white space, and a padded cell may be quoted or padded with other white space
  // (a no-break space). A cell of white space alone is empty, "not given". Texts keep their
  // inner white space; validation tidies their line breaks, as in every format.
  const cell = (c: Column) => record[c]?.trim() || undefined;
  const value: Record<string, unknown> = {};
  for (const c of ['id', 'author', 'author_avatar_url', 'date', 'text', 'source', 'source_url', 'source_id'] as const) {
    const v = cell(c);
    if (v !== undefined) value[c] = v;
  }
  const rating = cell('rating');
  if (rating !== undefined) value.rating = /^\d+$/.test(rating) ? Number(rating) : rating;
  const verified = cell('verified');
  const word = verified?.toLowerCase();
  // Any other word goes on as written, for validation to refuse with the words accepted.
  if (verified !== undefined) value.verified = TRUE.includes(word!) ? true : FALSE.includes(word!) ? false : verified;
  const replyText = cell('owner_reply_text');
  const replyDate = cell('owner_reply_date');
  if (replyText !== undefined || replyDate !== undefined) value.owner_reply = { text: replyText, date: replyDate };
  return { where, value };
}
