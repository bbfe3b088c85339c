/** The reviewcast command line: serve, import, prepare, export and hub list. */
import { createWriteStream, existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadBaseUrl, loadDatabaseConfig, loadServeConfig, progressWanted, type StoreLocation } from '../config.js';
import { datasetJson, PLACEHOLDER_BUSINESS } from '../core/dataset.js';
import { DEMO_BUSINESS } from '../core/demo/business.js';
import { demoReviews } from '../core/demo/reviews.js';
import { ImportValidationError } from '../core/import-plan.js';
import { sortNewestFirst } from '../core/reviews.js';
import { startServer } from '../http/server.js';
import { createLogger } from '../logger.js';
import { openStore, StoreOpenError } from '../store/open-store.js';
import type { Store, StoredData } from '../store/store.js';
import { releaseBuild } from '../snapshot/build-digest.js';
import { VERSION } from '../version.js';
import { ImportFileError } from './formats/types.js';
import { FileAccessError, IMPORT_FORMATS, formatValidationError, PreparationError, openImportFile, prepareRevision, runImport, type ImportFormat } from './import-command.js';

const USAGE = `reviewcast: publish one business's customer reviews

Usage:
  reviewcast serve                 start the HTTP service (env: PORT, HOST, BASE_URL, DATABASE_URL, LOG_LEVEL)
  reviewcast import <file> [--format json|csv|gbp] [--replace [--allow-empty]] [--dry-run]
                                   merge reviews from a file into the database, then make what the
                                   service serves for it (env: DATABASE_URL; with BASE_URL, also the
                                   documents that name it). The file is UTF-8 (or UTF-16 with its
                                   byte order mark); CSV cells are separated by commas, semicolons or
                                   tabs, as its header row (or an Excel "sep=" first line) shows; .csv,
                                   .tsv and .tab files are CSV. --replace makes the stored reviews
                                   exactly the file's; a file of no reviews is refused with it, as
                                   it would remove them all, unless --allow-empty is given too.
                                   --dry-run says what would change and writes nothing (refused
                                   where the import would be).
  reviewcast prepare               make what this build serves for the data as it is and keep it in
                                   the store, so the service's next start reads it: run it after an
                                   upgrade, before the new build serves (env: DATABASE_URL; with
                                   BASE_URL, also the documents that name it)
  reviewcast export [file]         write the /reviews.json document (stdout when no file)
  reviewcast hub list [--json]     list WebSub subscriptions (callback, topic, state, lease end, failures)
  reviewcast --version | --help    (--help or -h after a command: this text too)

Exit codes: 0 ok; 1 invalid import data, nothing written (an empty file, text that is not UTF-8,
a file that is not its format, an invalid record, or --replace with no reviews without
--allow-empty; prepare: what it makes could not be kept; serve: the shutdown timed out); 2 bad
usage or configuration (including an unknown option, a file that cannot be read or written, and
prepare's database file missing); 3 the store cannot be opened (DATABASE_URL: corrupt or
read-only file, unreachable database); 4 serve cannot listen (the port is in use or not
permitted: PORT, HOST).`;

class UsageError extends Error {}

/** `--help` or `-h` after a command: the usage, on stdout, exit 0. */
class HelpWanted extends Error {}

/** Levenshtein distance, for a mistyped option's likely meaning. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * A command's arguments, parsed. `--help` anywhere before `--` asks for the usage; an option the
 * command does not take is named as typed, with the one it is likely to mean (Node's own message
 * says to pass it after `--` as a file name, which is never what was meant here).
 */
function commandArgs<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  const given = tokens.flatMap((t) => (t.kind === 'option' ? [t] : []));
  if (given.some((t) => t.name === 'help' || t.name === 'h')) throw new HelpWanted();
  const unknown = given.find((t) => !Object.hasOwn(options, t.name));
  if (unknown) {
    const near = [...Object.keys(options), 'help'].find((k) => (unknown.name.length >= 2 && k.startsWith(unknown.name)) || editDistance(unknown.name, k) <= 2);
    throw new UsageError(`unknown option ${unknown.rawName}${near ? `; did you mean --${near}?` : ''}`);
  }
  return parseArgs({ args, options, allowPositionals: true });
}

/** Opens the store and reads it: the first read is part of opening, so a file whose header is sound but whose pages are not is a StoreOpenError (exit 3). */
async function openAndLoad(database: StoreLocation): Promise<{ store: Store; data: StoredData }> {
  const store = await openStore(database);
  const data = await store.load().catch(async (err: unknown) => {
    await store.close().catch(() => undefined);
    throw new StoreOpenError(database, err);
  });
  return { store, data };
}

async function serve(args: string[]): Promise<void> {
  if (commandArgs(args, {}).positionals.length > 0) throw new UsageError('serve takes no arguments: its settings are environment variables (PORT, HOST, BASE_URL, DATABASE_URL ...; docs/operations.md)');
  const config = loadServeConfig();
  const logger = createLogger(config.logLevel);
  const { store, data } = await openAndLoad(config.database);
  if (data.reviews.length === 0 && data.business === null) {
    const reviews = demoReviews();
    await store.importReviews({ reviews, business: DEMO_BUSINESS, replace: false, dryRun: false });
    logger.warn({ reviews: reviews.length }, `empty database: seeded DEMO data for "${DEMO_BUSINESS.name}" (fictional); import your own reviews with "reviewcast import <file> --replace" (the demo profile goes with the demo reviews; docs/import.md)`);
  }
  const server = await startServer({
    store,
    logger,
    host: config.host,
    port: config.port,
    baseUrl: config.baseUrl,
    revisionPollMs: config.revisionPollMs,
    trustProxy: config.trustProxy,
    hub: config.hub,
    mcp: config.mcp,
    http: config.http,
    cost: config.cost,
  });
  logger.info({ url: server.url, base_url: config.baseUrl, store: config.database.kind, version: VERSION, build: releaseBuild() }, `reviewcast listening on ${server.url}`);
  const stop = async (signal: string) => {
    logger.info({ signal, timeout_ms: config.http.shutdownTimeoutMs }, 'shutting down: no new connections; finishing requests and deliveries under way');
    const deadline = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), config.http.shutdownTimeoutMs).unref());
    const outcome = await Promise.race([server.close().then(() => 'done' as const), deadline]);
    if (outcome === 'timeout') logger.warn({ timeout_ms: config.http.shutdownTimeoutMs }, 'shutdown timed out: exiting with work unfinished (pending deliveries stay queued)');
    await store.close();
    logger.info('stopped');
    process.exit(outcome === 'done' ? 0 : 1);
  };
  // Ctrl-C is a stop like SIGTERM: requests under way finish. A second signal during the stop ends the process at once.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now with work unfinished');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    void stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function importCommand(args: string[]): Promise<void> {
  const { values, positionals } = commandArgs(args, {
    format: { type: 'string' },
    replace: { type: 'boolean', default: false },
    'allow-empty': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('import takes exactly one file');
  if (values['allow-empty'] && !values.replace) throw new UsageError('--allow-empty goes with --replace: an import without it removes nothing');
  const file = positionals[0]!;
  if (values.format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join(', ')}`);
  }
  const format = values.format as ImportFormat | undefined;
  // The public origin the service will name (its documents are made by the import too); a wrong one is reported before anything is read.
  const baseUrl = loadBaseUrl();
  // Read first: a mistyped file name is reported before the store is opened (or a database file made).
  const source = await openImportFile(file);
  const store = await openStore(loadDatabaseConfig());
  try {
    const { summary, notice, changed } = await runImport(store, { file: source, format, replace: values.replace, allowEmpty: values['allow-empty'], dryRun: values['dry-run'], progress: progressWanted() });
    process.stdout.write(`${summary}\n`);
    if (notice !== undefined) process.stderr.write(`reviewcast import: ${notice}\n`);
    if (changed) {
      // The import has landed either way: what is not made here the service makes when it next loads this revision.
      await prepareRevision(store, { progress: progressWanted(), baseUrl }).catch((err: unknown) => {
        if (!(err instanceof PreparationError)) throw err;
        process.stderr.write(`reviewcast import: ${err.message}\n`);
      });
    }
  } finally {
    await store.close();
  }
}

async function prepareCommand(args: string[]): Promise<void> {
  const { positionals } = commandArgs(args, {});
  if (positionals.length > 0) throw new UsageError('prepare takes no arguments');
  // As for an import: the documents only for a BASE_URL given, since the first origin a database
  // is prepared or served for names its feed entries for good.
  const baseUrl = loadBaseUrl();
  const database = loadDatabaseConfig();
  // Opening a SQLite file that is not there would make an empty one: a mistyped DATABASE_URL is said so instead.
  if (database.kind === 'sqlite' && database.path !== ':memory:' && !existsSync(database.path)) {
    throw new FileAccessError(`no database at ${database.path}: nothing to prepare (DATABASE_URL as the service has it)`);
  }
  const { store, data } = await openAndLoad(database);
  try {
    if (data.reviews.length === 0 && data.business === null) {
      process.stdout.write('nothing to prepare: the database is empty (the service seeds its demo on its first start and analyses it then)\n');
      return;
    }
    const done = await prepareRevision(store, { progress: progressWanted(), baseUrl, always: true, data });
    const reviews = `revision ${done.revision} (${done.reviews.toLocaleString('en')} review${done.reviews === 1 ? '' : 's'})`;
    const again = 'the data changed meanwhile; run prepare again';
    if (done.insights === 'left') {
      process.stdout.write(`${reviews}: not prepared, ${again}\n`);
      return;
    }
    const insights = done.insights === 'analysed' ? 'insights analysed and kept' : 'insights kept already';
    const documents = !baseUrl ? 'no documents: BASE_URL is not set (the service makes them when it starts)' : done.documents ? `documents for ${baseUrl} kept` : `documents for ${baseUrl} not kept, ${again}`;
    process.stdout.write(`${reviews}: ${insights}; ${documents}\n`);
  } finally {
    await store.close();
  }
}

async function exportCommand(args: string[]): Promise<void> {
  const { positionals } = commandArgs(args, {});
  if (positionals.length > 1) throw new UsageError('export takes at most one file');
  const store = await openStore(loadDatabaseConfig());
  try {
    const data = await store.load();
    // Written a piece at a time, as the destination takes it: a million reviews are more than one string.
    const body = () => Readable.from(datasetJson(data.business ?? PLACEHOLDER_BUSINESS, sortNewestFirst(data.reviews)));
    if (positionals[0]) {
      await pipeline(body(), createWriteStream(positionals[0])).catch((err: NodeJS.ErrnoException) => {
        throw new FileAccessError(`cannot write ${positionals[0]}: ${err.code === 'ENOENT' ? 'no such folder' : err.code === 'EACCES' ? 'permission denied' : err.message}`);
      });
      process.stderr.write(`exported ${data.reviews.length} reviews to ${positionals[0]}\n`);
    } else {
      // A reader that stops early (`| head`) closes the pipe: not an error of the export.
      await pipeline(body(), process.stdout, { end: false }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') throw err;
      });
    }
  } finally {
    await store.close();
  }
}

/** Non-printable characters (controls, format characters such as bidi overrides, unpaired surrogates), which must not reach a terminal raw. */
const NON_PRINTABLE = /\p{C}/gu;
const escapeUnits = (c: string) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** A stored value as the table shows it: backslash and every non-printable character escaped, so a callback can not move the cursor, retitle the window or forge rows. */
function printable(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(NON_PRINTABLE, escapeUnits);
}

async function hubCommand(args: string[]): Promise<void> {
  const { values, positionals } = commandArgs(args, { json: { type: 'boolean', default: false } });
  if (positionals.length !== 1 || positionals[0] !== 'list') throw new UsageError('usage: reviewcast hub list [--json]');
  const store = await openStore(loadDatabaseConfig());
  try {
    const now = Date.now();
    const rows = [
      ...(await store.listSubscriptions()).map((s) => ({
        callback: s.callback,
        topic: s.topic,
        state: s.expires_at > now ? 'active' : 'expired',
        lease_ends: new Date(s.expires_at).toISOString(),
        failures: s.failures,
      })),
      ...(await store.listPendingVerifications()).map((v) => ({ callback: v.callback, topic: v.topic, state: `pending ${v.mode}`, lease_ends: '-', failures: 0 })),
    ];
    if (values.json) {
      // JSON.stringify escapes C0 controls but leaves DEL, C1 and format characters raw; \u escapes keep the JSON the same and the terminal safe.
      process.stdout.write(`${JSON.stringify(rows, null, 2).replace(NON_PRINTABLE, (c) => (c === '\n' ? c : escapeUnits(c)))}\n`);
      return;
    }
    if (rows.length === 0) {
      process.stdout.write('no subscriptions\n');
      return;
    }
    const header = { callback: 'CALLBACK', topic: 'TOPIC', state: 'STATE', lease_ends: 'LEASE ENDS', failures: 'FAILURES' };
    const table = [header, ...rows.map((r) => ({ ...r, callback: printable(r.callback), topic: printable(r.topic), failures: String(r.failures) }))];
    const keys = Object.keys(header) as (keyof typeof header)[];
    const width = Object.fromEntries(keys.map((k) => [k, Math.max(...table.map((r) => String(r[k]).length))]));
    for (const r of table) process.stdout.write(`${keys.map((k) => String(r[k]).padEnd(width[k]!)).join('  ').trimEnd()}\n`);
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        await serve(rest);
        return -1;
      case 'import':
        await importCommand(rest);
        return 0;
      case 'export':
        await exportCommand(rest);
        return 0;
      case 'prepare':
        await prepareCommand(rest);
        return 0;
      case 'hub':
        await hubCommand(rest);
        return 0;
      case '--version':
      case '-v':
        process.stdout.write(`${VERSION}\n`);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      default:
        throw new UsageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof HelpWanted) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`reviewcast: invalid configuration: ${err.message}\n`);
      return 2;
    }
    if (err instanceof FileAccessError) {
      process.stderr.write(`reviewcast ${command}: ${err.message}\n`);
      return 2;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`reviewcast: ${(err as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof StoreOpenError) {
      process.stderr.write(`reviewcast: ${err.message}\n`);
      return 3;
    }
    const listenError = err as NodeJS.ErrnoException & { syscall?: string; address?: string; port?: number };
    if (listenError.syscall === 'listen' && (listenError.code === 'EADDRINUSE' || listenError.code === 'EACCES')) {
      const why = listenError.code === 'EADDRINUSE' ? 'is already in use' : 'may not be used by this user';
      process.stderr.write(`reviewcast: cannot listen: ${listenError.address ?? 'the address'} port ${listenError.port ?? '?'} ${why}; stop what holds it or set PORT (and HOST)\n`);
      return 4;
    }
    if (err instanceof PreparationError) {
      process.stderr.write(`reviewcast ${command}: ${err.message}\n`);
      return 1;
    }
    if (err instanceof ImportValidationError) {
      process.stderr.write(`reviewcast import: ${formatValidationError(err)}\n`);
      return 1;
    }
    if (err instanceof ImportFileError) {
      process.stderr.write(`reviewcast import: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`reviewcast: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
