/** The import command: reads a file with its format's adapter, validates every record and merges them into the store. */
import { constants } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { extname } from 'node:path';
import cliProgress from 'cli-progress';
import { PLACEHOLDER_BUSINESS } from '../core/dataset.js';
import { DEMO_BUSINESS } from '../core/demo/business.js';
import { ImportValidationError, validateBusiness, validateRecords, type ImportOutcome } from '../core/import-plan.js';
import { AnalysisCache } from '../core/insights/per-review.js';
import { sortNewestFirst } from '../core/reviews.js';
import { installationFeedTag } from '../snapshot/live-data.js';
import { analyseAndKeep, DOCUMENT_STEPS, INSIGHTS_KEPT, Snapshot } from '../snapshot/snapshot.js';
import type { Store, StoredData } from '../store/store.js';
import { csvLayout, delimitedKind, parseCsvImport } from './formats/csv.js';
import { parseGbpImport } from './formats/gbp.js';
import { NotJsonError, parseJsonImport, streamJsonImport } from './formats/json.js';
import { headText, isBlank, isBlankText, TextReader, wholeText } from './formats/text.js';
import { ImportFileError, type ParsedImport } from './formats/types.js';

export const IMPORT_FORMATS = ['json', 'csv', 'gbp'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The file named on the command line cannot be read (missing, a folder, not permitted): a usage problem, not invalid data. */
export class FileAccessError extends Error {
  override name = 'FileAccessError';
}

const WHY: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a folder, not a file' };

/** An import file checked readable and not empty: its size and its first bytes, enough to tell its format; its reader reads it whole or streams it. */
export interface ImportFile {
  path: string;
  size: number;
  /** The first bytes as text (HEAD_BYTES of them at most). */
  head: string;
  /** The whole content of what is not a regular file (a pipe, `/dev/stdin`): it can be read only once, so it is read here. */
  bytes?: Buffer;
}

/** Bytes read to tell a file's format. */
const HEAD_BYTES = 64 * 1024;

/**
 * Files up to this size are read as one string: JSON.parse is fast and its errors give a
 * position. A larger file cannot be one string (V8's limit, about 512 MB: an export of a million
 * reviews), so JSON is streamed; CSV always is.
 */
export const WHOLE_TEXT_BYTES = constants.MAX_STRING_LENGTH;

/** A read error as the operator should hear it: the file and why, in one line. */
function accessError(path: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined || code.startsWith('CSV_')) return err;
  return new FileAccessError(`cannot read ${path}: ${WHY[code] ?? (err as Error).message}`);
}

/** The file opened, and whether it holds nothing but white space. */
async function readHead(path: string, handle: FileHandle): Promise<{ file: ImportFile; blank: boolean }> {
  const stat = await handle.stat();
  if (stat.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
  if (!stat.isFile()) {
    const bytes = await handle.readFile();
    const head = headText(bytes.subarray(0, HEAD_BYTES));
    return { file: { path, size: bytes.length, head, bytes }, blank: isBlankText(head) && (bytes.length <= HEAD_BYTES || (await isBlank(chunksOf(bytes)))) };
  }
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(Math.min(HEAD_BYTES, stat.size)), 0, Math.min(HEAD_BYTES, stat.size), 0);
  const head = headText(buffer.subarray(0, bytesRead));
  // Past a blank head the file is read on only up to its first other character.
  const blank = isBlankText(head) && (bytesRead === stat.size || (await isBlank(handle.createReadStream({ start: 0, autoClose: false }))));
  return { file: { path, size: stat.size, head }, blank };
}

/**
 * Opens the file named on the command line and reads its first bytes; a FileAccessError names
 * the file and why it cannot be read, an ImportFileError says it is empty (nothing, or only
 * white space): with --replace such a file would empty the store, and it is never what was meant.
 */
export async function openImportFile(path: string): Promise<ImportFile> {
  let opened;
  try {
    const handle = await open(path, 'r');
    try {
      opened = await readHead(path, handle);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw accessError(path, err);
  }
  if (opened.blank) {
    const what = opened.file.size === 0 ? '0 bytes' : 'only white space';
    throw new ImportFileError(`${path} is empty (${what}): there is nothing to import, and nothing was imported; check that this is the file you meant and that whatever wrote it had finished`);
  }
  return opened.file;
}

/** The whole file as text: UTF-8 or UTF-16 with its byte order mark, anything else refused (TextReader). */
const textOf = async (file: ImportFile) => wholeText(file.path, file.bytes ?? (await readFile(file.path)));

/** Bytes read at a time from what was read already, as a file is read. */
const CHUNK_BYTES = 64 * 1024;

function* chunksOf(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}

/** Chunks of a file checked as text on the way (TextReader): UTF-8 passed on as it is, UTF-16 as UTF-8, for the readers. */
async function* checkedText(path: string, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  const reader = new TextReader(path);
  for await (const chunk of chunks) {
    const text = reader.push(chunk);
    if (reader.utf8) yield chunk;
    else if (text !== '') yield Buffer.from(text);
  }
  reader.end();
}

/** The file as a stream of UTF-8 bytes. */
const streamOf = (file: ImportFile): Readable => Readable.from(checkedText(file.path, file.bytes ? chunksOf(file.bytes) : createReadStream(file.path)));

/** Each format's reader; `wholeTextBytes` is WHOLE_TEXT_BYTES but in tests. */
const READERS: Record<ImportFormat, (file: ImportFile, wholeTextBytes: number) => Promise<ParsedImport>> = {
  json: async (file, limit) => (file.size <= limit ? parseJsonImport(await textOf(file)) : streamJsonImport(streamOf(file))),
  csv: async (file) => parseCsvImport(streamOf(file), csvLayout(file.head)),
  gbp: async (file, limit) => {
    // A reviews.list response is a page of at most 50 reviews: a file this large is not one.
    if (file.size > limit) throw new ImportFileError(`a Google Business Profile file is read whole, and this one (${file.size.toLocaleString('en')} bytes) is larger than ${limit.toLocaleString('en')} bytes; split it into smaller files (a reviews.list page holds at most 50 reviews) or convert it to our JSON or CSV (docs/import.md)`);
    return parseGbpImport(await textOf(file));
  },
};

/** A Google Business Profile `reviews.list` response names its fields so; our JSON never does. */
const GBP_FIELDS = /"(?:reviewId|starRating)"\s*:/;

/** Extensions of delimited text: the CSV reader takes commas, semicolons or tabs by the header row (or a sep= line). */
const DELIMITED = new Set(['.csv', '.tsv', '.tab']);

/** The format of a file given without --format: CSV by its extension, else GBP when its JSON reads like a Google export, else our JSON. */
export function guessFormat(file: ImportFile): ImportFormat {
  if (DELIMITED.has(extname(file.path).toLowerCase())) return 'csv';
  return GBP_FIELDS.test(file.head) ? 'gbp' : 'json';
}

export interface ImportOptions {
  /** The file, opened before the store is (openImportFile). */
  file: ImportFile;
  /** Files larger than this are streamed (WHOLE_TEXT_BYTES, the default, but in tests). */
  wholeTextBytes?: number;
  /** Guessed from the file's name and content when not given (guessFormat). */
  format: ImportFormat | undefined;
  replace: boolean;
  /** With `replace`, a file of no reviews may remove every stored one (`--allow-empty`); without it such an import is refused. */
  allowEmpty?: boolean;
  dryRun: boolean;
  /** Draw progress bars (only on a terminal). */
  progress: boolean;
}

/** Fewer items than this take too little time for a progress bar. */
const PROGRESS_FROM = 2000;

/**
 * A bar for `total` items (shown from PROGRESS_FROM of them: small imports finish before a bar
 * helps), or, given the first one's name, for a few named steps of unlike size: their count and
 * the one under way, no percentage. On stderr, so stdout carries only the summary.
 */
function progressBar(enabled: boolean, label: string, total: number, firstStep?: string) {
  if (!enabled || (firstStep === undefined && total < PROGRESS_FROM)) return { update: (_n: number, _step?: string) => {}, stop: () => {} };
  const counted = firstStep === undefined ? '{percentage}% {value}/{total}' : '{value}/{total} done{step}';
  const bar = new cliProgress.SingleBar({ format: `${label.padEnd(10)} [{bar}] ${counted}`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, { step: firstStep });
  return { update: (n: number, step?: string) => bar.update(n, step === undefined ? undefined : { step }), stop: () => bar.stop() };
}

/** Reads, validates (all or nothing) and merges one file; returns the summary line and, when the seeded demo is involved, what to say about it. */
export async function runImport(store: Store, opts: ImportOptions): Promise<{ summary: string; notice: string | undefined; changed: boolean }> {
  const format = opts.format ?? guessFormat(opts.file);
  const parsed = await READERS[format](opts.file, opts.wholeTextBytes ?? WHOLE_TEXT_BYTES).catch((err: unknown) => {
    // Delimited text is told by its name alone, and Excel's "Unicode text" is a .txt: taken for JSON, it is said to look like what it is.
    const kind = opts.format === undefined && err instanceof NotJsonError ? delimitedKind(opts.file.head) : undefined;
    if (kind !== undefined) throw new ImportFileError(`${(err as Error).message}; this looks like ${kind} (its first line names columns), not JSON: add --format csv`);
    throw accessError(opts.file.path, err);
  });
  const business = parsed.business === undefined || parsed.business === null ? undefined : validateBusiness(parsed.business);
  const checking = progressBar(opts.progress, 'validating', parsed.records.length);
  let reviews;
  try {
    reviews = validateRecords(parsed.records, { spellings: parsed.spellings, onProgress: (n) => checking.update(n) });
  } finally {
    checking.stop();
  }
  // A file of no reviews replacing them all is far more often an export gone wrong than a wish: asked for by name.
  if (opts.replace && reviews.length === 0 && !opts.allowEmpty) {
    const { removed } = await store.importReviews({ reviews, business, replace: true, dryRun: true });
    if (removed > 0) {
      const all = removed === 1 ? 'the 1 stored review' : `all ${removed.toLocaleString('en')} stored reviews`;
      throw new ImportFileError(
        `${opts.file.path} holds no reviews, so --replace would remove ${all}; nothing was imported. Check that this is the file you meant; to empty the store on purpose, add --allow-empty`,
      );
    }
  }
  const writing = progressBar(opts.progress, 'writing', reviews.length);
  let outcome;
  try {
    outcome = await store.importReviews({
      reviews,
      business,
      replace: opts.replace,
      dryRun: opts.dryRun,
      onProgress: (done, total) => writing.update(Math.round((done / Math.max(total, 1)) * reviews.length)),
    });
  } finally {
    writing.stop();
  }
  const counts = `${outcome.added} added, ${outcome.updated} updated, ${outcome.removed} removed, ${outcome.unchanged} unchanged`;
  const biz = outcome.demo_profile === 'dropped' ? '; demo business profile removed' : outcome.business_changed ? '; business profile updated' : '';
  const notice = demoNotice(outcome, opts);
  if (opts.dryRun) return { summary: `dry run, nothing written: would be ${counts}${biz}`, notice, changed: false };
  const rev =
    outcome.revision_after === outcome.revision_before ? `revision ${outcome.revision_after} (no change)` : `revision ${outcome.revision_before} -> ${outcome.revision_after}`;
  return { summary: `imported ${reviews.length} record${reviews.length === 1 ? '' : 's'}: ${counts}${biz}; ${rev}`, notice, changed: outcome.revision_after !== outcome.revision_before };
}

/** Something the import (or `prepare`) could not make for the revision (the data has landed): the message says what the service does instead. */
export class PreparationError extends Error {
  override name = 'PreparationError';
}

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** What prepareRevision did: the revision, its insights (read from the store, analysed here, or left to whoever moved the data on) and whether its documents are made. */
export interface Preparation {
  revision: number;
  reviews: number;
  insights: 'kept already' | 'analysed' | 'left';
  documents: boolean;
}

/**
 * Makes what the service would make before serving the current revision, and keeps it in the store
 * as the service keeps it, so the service's next start (or a replica's) reads it instead (the
 * import pays, not the first visitor after a deploy):
 * - the insights: every review analysed, unless the store keeps them for this revision and build
 *   already. A service already running analyses only the reviews that changed and keeps the same
 *   document; once it has (or another import moved the data on), the analysis stops.
 * - with `baseUrl` (the public origin the documents name), the documents: the published
 *   reviews, the feeds, their compressed forms, the search index's prepared parts and the
 *   insights' brotli form, made by the revision's snapshot as a starting service makes them
 *   (those the store keeps already are read, not made again). After an import, only when it
 *   analysed the reviews itself: when a running service kept the insights first, it is making
 *   the documents too. `reviewcast prepare` (`always`) makes them whoever kept the insights.
 * Throws a PreparationError naming what was not made.
 */
export async function prepareRevision(
  store: Store,
  opts: { progress: boolean; baseUrl: string | undefined; always?: boolean; data?: StoredData },
): Promise<Preparation> {
  const insightsNotMade = (err: unknown) =>
    new PreparationError(`the insights were not prepared (${reason(err)}); the service analyses the reviews when it next loads this revision`);
  const data =
    opts.data ??
    (await store.load().catch((err: unknown) => {
      throw insightsNotMade(err);
    }));
  const { revision } = data;
  const done: Preparation = { revision: revision.revision, reviews: data.reviews.length, insights: 'left', documents: false };
  const moved = async () => (await store.getRevision()).revision !== revision.revision;
  /** The snapshot whose documents to make: set only when this run analysed the revision (or, `always`, read it) for BASE_URL. */
  let documentsOf: Snapshot | undefined;
  const analysing = progressBar(opts.progress, 'analysing', data.reviews.length);
  let movedOn = false;
  try {
    const analysis = {
      onProgress: (n: number) => analysing.update(n),
      stopIf: async () => (await moved()) || (await store.hasKept(revision.revision, INSIGHTS_KEPT)),
    };
    if (opts.baseUrl) {
      // The snapshot a starting service would make, so its documents are made by the same code.
      const snapshot = new Snapshot(data, await installationFeedTag(store, opts.baseUrl));
      let outcome = await snapshot.prepareInsights(store, analysis);
      // Kept meanwhile by a running service: read, for the documents to be made here all the same.
      if (opts.always && outcome === 'stopped' && !(await moved())) outcome = await snapshot.prepareInsights(store, { stopIf: moved });
      if (outcome !== 'stopped') done.insights = outcome === 'loaded' ? 'kept already' : 'analysed';
      if (outcome === 'analysed' || (opts.always && outcome === 'loaded')) documentsOf = snapshot;
    } else if (await store.hasKept(revision.revision, INSIGHTS_KEPT)) {
      done.insights = 'kept already';
    } else {
      // Without documents to make, no search index: the reviews in the order a snapshot holds them.
      const reviews = sortNewestFirst(data.reviews);
      if (await analyseAndKeep(store, { business: data.business ?? PLACEHOLDER_BUSINESS, reviews, revision }, new AnalysisCache(), analysis)) done.insights = 'analysed';
    }
    movedOn = await moved();
  } catch (err) {
    throw insightsNotMade(err);
  } finally {
    analysing.stop();
  }
  // The store keeps only the newest revision's entries: once the data has moved on, what was made here is not kept.
  if (done.insights === 'analysed' && movedOn) done.insights = 'left';
  if (!documentsOf || !opts.baseUrl || movedOn) return done;
  // At a million reviews this takes minutes: its steps are shown by name.
  const now = (n: number) => (n < DOCUMENT_STEPS.length ? `, now ${DOCUMENT_STEPS[n]}` : '');
  const making = progressBar(opts.progress && data.reviews.length >= PROGRESS_FROM, 'documents', DOCUMENT_STEPS.length, now(0));
  try {
    await documentsOf.prepareDocuments(opts.baseUrl, store, (n) => making.update(n, now(n)));
  } catch (err) {
    throw new PreparationError(`the documents for ${opts.baseUrl} were not prepared (${reason(err)}); the service makes them when it next loads this revision`);
  } finally {
    making.stop();
  }
  try {
    done.documents = !(await moved());
  } catch (err) {
    throw new PreparationError(
      `the documents for ${opts.baseUrl} were made and kept for revision ${revision.revision}, but whether the reviews changed meanwhile could not be checked (${reason(err)}); a service on a newer revision makes its own`,
    );
  }
  return done;
}

const HOW_TO_PROFILE = `import your profile with a JSON file holding {"business": {"name": "...", ...}, "reviews": []} (no --replace; fields in docs/data-model.md)`;

/**
 * What the operator must hear about the seeded demo after an import: its profile still speaks
 * for the reviews (name, phone, technicians, "Reply from ..."), went with them, or its reviews
 * remain beside the operator's. Undefined when the demo is not involved.
 */
function demoNotice(outcome: ImportOutcome, opts: { replace: boolean; dryRun: boolean }): string | undefined {
  const reviews = `${outcome.demo_reviews} DEMO review${outcome.demo_reviews === 1 ? '' : 's'} (fictional)`;
  if (outcome.demo_profile === 'dropped') {
    return `the DEMO business profile ("${DEMO_BUSINESS.name}": its name, phone, address, technicians and services) ${opts.dryRun ? 'would go' : 'went'} with the demo reviews; until you import yours the pages name the business "${PLACEHOLDER_BUSINESS.name}": ${HOW_TO_PROFILE}`;
  }
  if (outcome.demo_profile === 'kept') {
    const left = outcome.demo_reviews > 0 ? `; ${reviews} ${opts.dryRun ? 'would remain' : 'remain'} (--replace drops them and the demo profile with them)` : '';
    return `WARNING: the business profile is still the DEMO one ("${DEMO_BUSINESS.name}", fictional): the pages, feeds and API show its name, phone, technicians and services with your reviews${left}; ${HOW_TO_PROFILE}`;
  }
  if (outcome.demo_reviews > 0) return `WARNING: ${reviews} ${opts.dryRun ? 'would remain' : 'remain'} beside yours; import with --replace to drop them`;
  return undefined;
}

export function formatValidationError(err: ImportValidationError, max = 20): string {
  const lines = err.errors.slice(0, max).map((e) => `  ${e.where}, field ${e.field}: ${e.message}`);
  if (err.errors.length > max) lines.push(`  ... and ${err.errors.length - max} more`);
  return `${err.message}:\n${lines.join('\n')}`;
}
