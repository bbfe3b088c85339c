/** What `reviewcast import` refuses and how it says so: empty files, text that is not UTF-8, CSV headers and syntax, white space around values, emptying --replace, and its options. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { parseCsvImport } from '../src/cli/formats/csv.js';
import { ImportFileError } from '../src/cli/formats/types.js';
import { openImportFile, runImport } from '../src/cli/import-command.js';
import { validateRecords } from '../src/core/import-plan.js';
import { BUSINESS } from './fixtures/data.js';
import { TEST_STORE, freshDatabase, openTestStore, pipedCli, runCli, tempDir } from './helpers.js';

const FOUR = `author,rating,date,source
Ann,5,2026-01-01,google
Bob,4,2026-01-02,google
Cid,3,2026-01-03,yelp
Dee,2,2026-01-04,yelp
`;

/** What an import may change: the reviews (their ids and authors), the profile and the revision. */
async function contents(db: string) {
  const store = await openTestStore(db);
  try {
    const data = await store.load();
    return {
      reviews: data.reviews.map((r) => `${r.id} ${r.author}`).sort(),
      authors: data.reviews.map((r) => r.author).sort(),
      business: data.business?.name ?? null,
      revision: data.revision.revision,
    };
  } finally {
    await store.close();
  }
}

/** The reviews a database holds, by author: their id, text and reply text. */
async function byAuthor(db: string) {
  const store = await openTestStore(db);
  try {
    return new Map((await store.load()).reviews.map((r) => [r.author, { id: r.id, text: r.text, reply: r.owner_reply?.text ?? null }]));
  } finally {
    await store.close();
  }
}

/** A database holding the four reviews of FOUR, a folder for files, and what the database holds. */
async function seeded() {
  const dir = tempDir();
  const db = await freshDatabase();
  const env = { DATABASE_URL: db };
  writeFileSync(join(dir, 'four.csv'), FOUR);
  const seed = await runCli(['import', join(dir, 'four.csv')], env);
  assert.equal(seed.code, 0, seed.stderr);
  const before = await contents(db);
  assert.equal(before.reviews.length, 4);
  return { dir, db, env, before };
}

/** Runs the CLI on `content` written to `name` in `dir`; the file's path and the result. */
async function importing(dir: string, name: string, content: string | Buffer, args: string[], env: Record<string, string>) {
  const file = join(dir, name);
  writeFileSync(file, content);
  return { file, res: await runCli(['import', file, ...args], env) };
}

/** Each file, imported with --dry-run, is accepted without a word on stderr and would do what `said` says. */
async function dryRunsSay(dir: string, env: Record<string, string>, files: readonly (readonly [name: string, content: string])[], said: string) {
  for (const [name, content] of files) {
    const { res } = await importing(dir, name, content, ['--dry-run'], env);
    assert.equal(res.code, 0, `${name}: ${res.stderr}`);
    assert.equal(res.stderr, '', name);
    assert.equal(res.stdout, said, name);
  }
}

const USAGE_START = "reviewcast: publish one business's customer reviews\n";

describe('reviewcast import: an empty file', () => {
  it('is refused in every format (0 bytes, white space, a byte order mark alone), naming it, and the store is unchanged', async () => {
    const { dir, db, env, before } = await seeded();
    for (const [name, content, args, what] of [
      ['empty.csv', '', ['--replace'], '0 bytes'],
      ['empty.json', '', ['--replace'], '0 bytes'],
      ['google.json', '', ['--format', 'gbp', '--replace'], '0 bytes'],
      ['blank.json', ' \n\t\r\n ', ['--replace'], 'only white space'],
      ['bom.csv', '\ufeff\r\n\r\n', ['--replace'], 'only white space'],
      ['utf16.csv', Buffer.from('\ufeff \n', 'utf16le'), ['--replace'], 'only white space'],
      // Blank past the first bytes read to tell the format.
      ['large.csv', ' '.repeat(200_000), ['--replace', '--dry-run'], 'only white space'],
    ] as const) {
      const { file, res } = await importing(dir, name, content, [...args], env);
      assert.equal(res.code, 1, `${name}: ${res.stderr}`);
      assert.equal(res.stdout, '', name);
      assert.equal(
        res.stderr,
        `reviewcast import: ${file} is empty (${what}): there is nothing to import, and nothing was imported; check that this is the file you meant and that whatever wrote it had finished\n`,
        name,
      );
    }
    assert.deepEqual(await contents(db), before);
  });

  it('is refused before the database is opened, from a pipe too; text after a long blank start is no empty file', async () => {
    const dir = tempDir();
    const db = join(dir, 'never.db');
    const { file, res } = await importing(dir, 'empty.csv', '', [], { DATABASE_URL: db });
    assert.match(res.stderr, /is empty \(0 bytes\)/);
    const pipe = pipedCli(file, ['import', '--format', 'csv', '--replace', '/dev/stdin'], { DATABASE_URL: db });
    assert.equal(pipe.status, 1);
    assert.match(pipe.stderr, /^reviewcast import: \/dev\/stdin is empty \(0 bytes\)/);
    if (TEST_STORE === 'sqlite') assert.equal(existsSync(db), false, 'no database file is made for an empty file');
    const late = await importing(dir, 'late.json', `${' '.repeat(100_000)}[]`, [], { DATABASE_URL: await freshDatabase() });
    assert.equal(late.res.code, 0, late.res.stderr);
    assert.match(late.res.stdout, /^imported 0 records/);
  });

  it('a CSV file whose first line names no column is said to have no header row', async () => {
    const { dir, db, env, before } = await seeded();
    const { res } = await importing(dir, 'rows.csv', 'Eve,5,2026-01-05,google\nFay,4,2026-01-06,google\n', ['--replace'], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^reviewcast import: CSV file has no header row: its first line \(Eve, 5, 2026-01-05, google\) names no known column; the first line must name the columns, e\.g\. author,rating,date,source \(known: id, author, /);
    assert.deepEqual(await contents(db), before);
    // The reader on its own: blank lines are no header either.
    await assert.rejects(parseCsvImport(Readable.from([Buffer.from('\r\n\n\r\n')])), (err: Error) => err instanceof ImportFileError && /^CSV file has no header row/.test(err.message));
  });
});

describe('reviewcast import --replace with a file of no reviews', () => {
  const refusal = (file: string, n: number) => `reviewcast import: ${file} holds no reviews, so --replace would remove all ${n} stored reviews; nothing was imported. Check that this is the file you meant; to empty the store on purpose, add --allow-empty\n`;

  it('is refused in every format, saying how many reviews it would remove, and the store is unchanged; a dry run is refused the same way', async () => {
    const { dir, db, env, before } = await seeded();
    for (const [name, content, args] of [
      ['header.csv', 'author,rating,date,source\n', []],
      ['bare.json', '[]', []],
      ['doc.json', '{"reviews": []}', []],
      ['profile.json', JSON.stringify({ business: BUSINESS, reviews: [] }), []],
      ['google.json', '{"reviews": [], "averageRating": 0}', ['--format', 'gbp']],
      ['header.csv', 'author,rating,date,source\n', ['--dry-run']],
    ] as const) {
      const { file, res } = await importing(dir, name, content, ['--replace', ...args], env);
      assert.equal(res.code, 1, `${name}: ${res.stderr}`);
      assert.equal(res.stdout, '', name);
      assert.equal(res.stderr, refusal(file, 4), name);
    }
    assert.deepEqual(await contents(db), before);
  });

  it('--allow-empty empties the store (a dry run with it says it would); without --replace it is a usage error', async () => {
    const { dir, db, env, before } = await seeded();
    const file = join(dir, 'header.csv');
    writeFileSync(file, 'author,rating,date,source\n');
    const lone = await runCli(['import', file, '--allow-empty'], env);
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /^reviewcast: --allow-empty goes with --replace: an import without it removes nothing\n\nreviewcast: publish/);
    const dry = await runCli(['import', file, '--replace', '--allow-empty', '--dry-run'], env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(dry.stdout, 'dry run, nothing written: would be 0 added, 0 updated, 4 removed, 0 unchanged\n');
    assert.deepEqual(await contents(db), before);
    const emptied = await runCli(['import', file, '--replace', '--allow-empty'], env);
    assert.equal(emptied.code, 0, emptied.stderr);
    assert.match(emptied.stdout, /^imported 0 records: 0 added, 0 updated, 4 removed, 0 unchanged; revision 1 -> 2\n/);
    assert.deepEqual((await contents(db)).reviews, []);
    // Nothing left to remove: nothing to refuse.
    const again = await runCli(['import', file, '--replace'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /revision 2 \(no change\)/);
  });

  it('a profile alone, without --replace, still updates the profile and keeps the reviews', async () => {
    const { dir, db, env, before } = await seeded();
    const { res } = await importing(dir, 'profile.json', JSON.stringify({ business: BUSINESS, reviews: [] }), [], env);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^imported 0 records: 0 added, 0 updated, 0 removed, 0 unchanged; business profile updated; revision 1 -> 2\n/);
    const after = await contents(db);
    assert.deepEqual(after.reviews, before.reviews);
    assert.equal(after.business, BUSINESS.name);
  });
});

describe('reviewcast import: text that is not UTF-8', () => {
  const latin1 = Buffer.from('author,rating,date,source\nJos\xe9 M\xfcller,5,2026-01-05,google\n', 'latin1');

  it('a Latin-1 CSV is refused with the byte, its line and offset, and the command that converts it; the store is unchanged; the converted copy imports', async () => {
    const { dir, db, env, before } = await seeded();
    const { file, res } = await importing(dir, 'latin.csv', latin1, ['--replace'], env);
    assert.equal(res.code, 1);
    const copy = join(dir, 'latin-utf8.csv');
    assert.equal(
      res.stderr,
      `reviewcast import: ${file} is not UTF-8 text: the byte 0xE9 on line 2 (29 bytes from the start of the file) is not part of a UTF-8 character. The file was probably saved in an older encoding such as Windows-1252 or Latin-1 (ISO-8859-1); nothing was imported. Convert it to UTF-8 (iconv -f windows-1252 -t utf-8 ${file} > ${copy} and import the copy), or save it again as UTF-8 (in Excel: "CSV UTF-8")\n`,
    );
    assert.deepEqual(await contents(db), before);
    const command = /\((iconv [^)]*) and import the copy\)/.exec(res.stderr)![1]!;
    assert.equal(spawnSync('bash', ['-c', command]).status, 0);
    const fixed = await runCli(['import', copy], env);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.ok((await contents(db)).authors.includes('José Müller'));
  });

  it('JSON read whole and streamed, and a pipe, are refused the same way; a bad byte far in is found at its exact offset and line', async () => {
    const dir = tempDir();
    const rows = Array.from({ length: 3000 }, (_, i) => `{"author": "Zoë ${i}", "rating": 5, "date": "2026-01-01", "source": "google"}`);
    const text = `[\n${rows.join(',\n')},\n{"author": "Ren\xe9e", "rating": 4, "date": "2026-01-02", "source": "google"}\n]\n`;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, text.indexOf('Ren\xe9e') + 3), 'utf8'), Buffer.from([0xe9]), Buffer.from(text.slice(text.indexOf('Ren\xe9e') + 4), 'utf8')]);
    const file = join(dir, 'big.json');
    writeFileSync(file, bytes);
    const where = `on line 3,002 (${bytes.indexOf(0xe9).toLocaleString('en')} bytes from the start of the file)`;
    assert.ok(bytes.indexOf(0xe9) > 128 * 1024, 'past the first chunks read');
    for (const wholeTextBytes of [Number.MAX_SAFE_INTEGER, 1]) {
      const store = await openTestStore(await freshDatabase());
      try {
        await assert.rejects(runImport(store, { file: await openImportFile(file), format: undefined, wholeTextBytes, replace: false, dryRun: false, progress: false }), (err: Error) => {
          assert.ok(err instanceof ImportFileError, err.stack);
          assert.ok(err.message.startsWith(`${file} is not UTF-8 text: the byte 0xE9 ${where} is not part`), err.message);
          return true;
        });
        assert.equal((await store.load()).reviews.length, 0);
      } finally {
        await store.close();
      }
    }
    writeFileSync(join(dir, 'latin.csv'), latin1);
    const pipe = pipedCli(join(dir, 'latin.csv'), ['import', '--format', 'csv', '/dev/stdin'], { DATABASE_URL: await freshDatabase() });
    assert.equal(pipe.status, 1);
    assert.match(pipe.stderr, /^reviewcast import: \/dev\/stdin is not UTF-8 text: the byte 0xE9 on line 2 \(29 bytes from the start of the file\) .* Convert it to UTF-8 \(pipe it through iconv -f windows-1252 -t utf-8 on its way in\)/);
  });

  it('a character cut by a chunk boundary is whole; a file cut inside a character is refused at its start', async () => {
    const { dir, db, env } = await seeded();
    // "é" (2 bytes) straddling the end of the first 64 KiB the stream reads.
    let csv = 'author,rating,date,source,text\n';
    let rows = 0;
    while (Buffer.byteLength(csv) < 63_000) csv += `P${rows++},5,2026-01-09,google,${'x'.repeat(900)}\n`;
    const last = 'Ann,5,2026-01-09,google,';
    csv += `${last}${'x'.repeat(65_535 - Buffer.byteLength(csv) - last.length)}é\n`;
    assert.equal(Buffer.from(csv).indexOf(Buffer.from('é')), 65_535);
    const { res } = await importing(dir, 'straddle.csv', csv, [], env);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, new RegExp(`^imported ${rows + 1} records: ${rows + 1} added`));
    const cut = Buffer.concat([Buffer.from('author,rating,date,source,text\nAnn,5,2026-01-09,google,caf'), Buffer.from([0xc3])]);
    const truncated = await importing(dir, 'cut.csv', cut, [], env);
    assert.equal(truncated.res.code, 1);
    assert.match(truncated.res.stderr, new RegExp(`the byte 0xC3 on line 2 \\(${cut.length - 1} bytes from the start of the file\\)`));
    assert.equal((await contents(db)).reviews.length, 4 + rows + 1);
  });

  it('UTF-16 with its byte order mark (either order) and UTF-8 with one import; UTF-16 holding half a character is refused', async () => {
    const { dir, db, env } = await seeded();
    const csv = '\ufeffauthor,rating,date,source\nJosé Müller,5,2026-02-01,google\n';
    const swapped = (b: Buffer) => Buffer.from(b.map((_, i) => b[i ^ 1]!));
    for (const [name, content] of [
      ['le.csv', Buffer.from(csv, 'utf16le')],
      ['be.csv', swapped(Buffer.from(csv, 'utf16le'))],
      ['bom.csv', Buffer.from(csv, 'utf8')],
      ['le.json', Buffer.from('\ufeff[{"author": "Zoë", "rating": 4, "date": "2026-02-02", "source": "google"}]', 'utf16le')],
    ] as const) {
      const { res } = await importing(dir, name, content, [], env);
      assert.equal(res.code, 0, `${name}: ${res.stderr}`);
    }
    // The same review from three files, and one from JSON.
    assert.deepEqual((await contents(db)).authors.filter((a) => a === 'José Müller' || a === 'Zoë'), ['José Müller', 'Zoë']);
    // A high surrogate (D83D) with no low one after it.
    const before = Buffer.from('\ufeffauthor,rating,date,source\nA', 'utf16le');
    const half = Buffer.concat([before, Buffer.from([0x3d, 0xd8]), Buffer.from(',5,2026-02-03,google\n', 'utf16le')]);
    const { file, res } = await importing(dir, 'half.csv', half, [], env);
    assert.equal(res.code, 1);
    assert.equal(res.stderr, `reviewcast import: ${file} starts with a UTF-16 byte order mark but is not UTF-16 text on line 2 (${before.length} bytes from the start of the file) (half a character, or a file cut short); nothing was imported. Save it again as UTF-8 from the program that made it\n`);
    assert.equal((await contents(db)).reviews.length, 6);
  });
});

describe('reviewcast import: the CSV header', () => {
  it('a missing required column is one error about the header, not one per row, and the store is unchanged', async () => {
    const { dir, db, env, before } = await seeded();
    const rows = Array.from({ length: 5000 }, (_, i) => `A${i},5,2026-01-01,fine`).join('\n');
    const said = 'reviewcast import: CSV header has no "source" column, which every review needs; nothing was imported (required: author, rating, date, source; found: author, rating, date, text)\n';
    const { res } = await importing(dir, 'nosource.csv', `author,rating,date,text\n${rows}\n`, ['--replace'], env);
    assert.equal(res.code, 1);
    assert.equal(res.stderr, said);
    // A row that is not valid CSV further on: the header is said first all the same.
    const later = await importing(dir, 'nosource-bad.csv', `author,rating,date,text\n${rows}\n"unclosed,5,2026-01-01,x\n`, ['--replace'], env);
    assert.equal(later.res.stderr, said);
    const two = await importing(dir, 'two.csv', 'author,rating,text\nA,5,fine\n', [], env);
    assert.match(two.res.stderr, /^reviewcast import: CSV header has no "date" and "source" columns, which every review needs/);
    const unknown = await importing(dir, 'unknown.csv', 'Author,rating,date,Source,Reply Text\nA,5,2026-01-01,google,Thanks\n', [], env);
    assert.match(unknown.res.stderr, /^reviewcast import: CSV header has unknown column\(s\): Reply Text; known: /);
    const twice = await importing(dir, 'twice.csv', 'author,rating,date,source,Author\nA,5,2026-01-01,google,B\n', [], env);
    assert.equal(twice.res.stderr, 'reviewcast import: CSV header names column(s) more than once: author\n');
    assert.deepEqual(await contents(db), before);
  });

  it('spaces or hyphens between the words of a column name stand for its underscores; errors name the column as written', async () => {
    const { dir, db, env } = await seeded();
    const header = 'Author,Rating,Date,Text,Source,Owner Reply Text,Owner-Reply-Date,Author Avatar URL,source - id';
    const row = 'Eve,5,2026-03-01,Great,google,Thanks,2026-03-02,https://example.com/eve.png,crm-7';
    for (const [name, content] of [
      ['words.csv', `${header}\n${row}\n`],
      ['words-semicolons.csv', `${header.replaceAll(',', ';')}\n${row.replaceAll(',', ';')}\n`],
      ['words-tabs.csv', `${header.replaceAll(',', '\t')}\n${row.replaceAll(',', '\t')}\n`],
    ] as const) {
      const { res } = await importing(dir, name, content, [], env);
      assert.equal(res.code, 0, `${name}: ${res.stderr}`);
      assert.equal(res.stderr, '', name);
    }
    const store = await openTestStore(db);
    try {
      const eve = (await store.load()).reviews.filter((r) => r.author === 'Eve');
      // Three files, one review: the same id from the same source_id.
      assert.equal(eve.length, 1);
      assert.deepEqual([eve[0]!.owner_reply, eve[0]!.author_avatar_url, eve[0]!.source_id], [{ text: 'Thanks', date: '2026-03-02' }, 'https://example.com/eve.png', 'crm-7']);
    } finally {
      await store.close();
    }
    const bad = await importing(dir, 'bad.csv', `${header}\nFay,4,2026-03-03,Fine,google,Thanks,soon,,\n`, ['--dry-run'], env);
    assert.equal(bad.res.code, 1);
    assert.match(bad.res.stderr, /^ {2}record 1 \(CSV line 2\), field Owner-Reply-Date: must be a date written YYYY-MM-DD, e\.g\. 2026-03-14 \(the reply's date, needed with owner_reply_text\); given "soon"$/m);
  });

  it('two header cells that read as one column are refused, saying how each was written, and nothing is imported', async () => {
    const { dir, db, env, before } = await seeded();
    for (const [name, content, said] of [
      ['reply-twice.csv', 'author,rating,date,source,owner_reply_text,Owner Reply Text\nA,5,2026-01-01,google,Thanks,Cheers\n', 'owner_reply_text (as "owner_reply_text" and "Owner Reply Text": spaces and hyphens between words read as underscores)'],
      ['id-twice.csv', 'Source ID,author,rating,date,source,source-id\nx,A,5,2026-01-01,google,y\n', 'source_id (as "Source ID" and "source-id": spaces and hyphens between words read as underscores)'],
      ['two-twice.csv', 'author,rating,date,source,Owner Reply Date,owner-reply-date,AUTHOR\nA,5,2026-01-01,google,,,B\n', 'author, owner_reply_date (as "Owner Reply Date" and "owner-reply-date": spaces and hyphens between words read as underscores)'],
      // Neither cell writes the column's own name, though they differ only in case: both are still said.
      ['case-twice.csv', 'author,rating,date,source,Owner Reply Text,owner reply text\nA,5,2026-01-01,google,Thanks,Cheers\n', 'owner_reply_text (as "Owner Reply Text" and "owner reply text": spaces and hyphens between words read as underscores)'],
    ] as const) {
      const { res } = await importing(dir, name, content, ['--replace'], env);
      assert.equal(res.code, 1, `${name}: ${res.stderr}`);
      assert.equal(res.stdout, '', name);
      assert.equal(res.stderr, `reviewcast import: CSV header names column(s) more than once: ${said}\n`, name);
    }
    assert.deepEqual(await contents(db), before);
  });
});

describe('reviewcast import: CSV that does not parse', () => {
  it('says the file is not valid CSV, the line, and what to check; the store is unchanged', async () => {
    const { dir, db, env, before } = await seeded();
    const head = 'author,rating,date,text,source\n';
    // Rows enough that the parser is ahead of the rows taken when it fails.
    const many = Array.from({ length: 5000 }, (_, i) => `A${i},5,2026-01-01,fine,google\n`).join('');
    const quoting = 'a cell holding a comma, a line break or a double quote is written inside double quotes, and a double quote inside it is written twice: ""';
    for (const [name, content, message] of [
      ['unclosed.csv', `${head}${many}\nB,5,2026-01-01,"it was,google\nC,5,2026-01-01,ok,google\n`, `not valid CSV: a double quote opened in the row starting on line 5003 is never closed, so the rest of the file would be one cell; check that row for a missing closing " (${quoting})`],
      ['opening.csv', `${head}A,5,2026-01-01,he said "hi",google\n`, `not valid CSV: on line 2 a double quote is inside a cell that does not start with one; check that line: ${quoting}`],
      ['closing.csv', `${head}A,5,2026-01-01,"multi\r\nline" then,google\n`, `not valid CSV: on line 3 a quoted cell goes on after its closing double quote; check that line: ${quoting}`],
      ['wide.csv', `${head}A,5,2026-01-01,"two\nlines",google\nB,4,2026-01-02,good, fast,google\n`, `not valid CSV: the row on line 4 has 6 cells and the header 5; check it for a text holding a comma outside double quotes (${quoting})`],
      ['narrow.csv', `${head}B,4,2026-01-02,google\n`, 'not valid CSV: the row on line 2 has 4 cells and the header 5; every row needs a cell for each column, empty ones too (two commas in a row)'],
    ] as const) {
      const { res } = await importing(dir, name, content, ['--replace'], env);
      assert.equal(res.code, 1, `${name}: ${res.stderr}`);
      assert.equal(res.stderr, `reviewcast import: ${message}\n`, name);
    }
    assert.deepEqual(await contents(db), before);
  });

  it('reads semicolon- and tab-separated files by their header row, quoting and all; a semicolon in a comma-separated text stays text', async () => {
    const { dir, db, env } = await seeded();
    const semicolons = 'author;rating;date;text;source\r\n"Eve; E.";5;2026-03-01;"Good, fast; ""neat""";google\r\n';
    const tabs = 'author\trating\tdate\ttext\tsource\nFay\t4\t2026-03-02\tOk, fine\tyelp\n';
    const commas = 'author,rating,date,text,source\nGus,3,2026-03-03,so-so; slow,google\n';
    assert.equal((await importing(dir, 'semi.csv', semicolons, [], env)).res.code, 0);
    // A .tsv file is delimited text without --format, as a .csv one is.
    assert.equal((await importing(dir, 'reviews.TSV', tabs, [], env)).res.code, 0);
    assert.equal((await importing(dir, 'commas.csv', commas, [], env)).res.code, 0);
    const store = await openTestStore(db);
    try {
      const texts = new Map((await store.load()).reviews.map((r) => [r.author, r.text]));
      assert.deepEqual([texts.get('Eve; E.'), texts.get('Fay'), texts.get('Gus')], ['Good, fast; "neat"', 'Ok, fine', 'so-so; slow']);
    } finally {
      await store.close();
    }
    const unknown = await importing(dir, 'stars.csv', 'author;stars\nA;5\n', [], env);
    assert.equal(unknown.res.code, 1);
    assert.match(unknown.res.stderr, /^reviewcast import: CSV header has unknown column\(s\): stars; known: /);
  });
});

describe('reviewcast import: CSV as spreadsheets write it', () => {
  it('column names match in any case and with spaces around them, silently; errors name them as the file spells them', async () => {
    const { dir, env } = await seeded();
    const files = [
      ['capitals.csv', 'Author,Rating,Date,Text,Source,Owner_Reply_Text,OWNER_REPLY_DATE\nEve,5,2026-03-01,Great,google,Thanks,2026-03-02\n'],
      ['spaced.csv', 'author, rating, date, text, source \nEve,5,2026-03-01,Great,google\n'],
      ['spaced-semicolons.csv', 'Author; Rating; Date; Text; Source\nEve;5;2026-03-01;Great;google\n'],
    ] as const;
    await dryRunsSay(dir, env, files, 'dry run, nothing written: would be 1 added, 0 updated, 0 removed, 0 unchanged\n');
    const bad = await importing(dir, 'bad.csv', 'Author, Rating ,Date,Source,OWNER_REPLY_DATE\nEve,five,2026-03-01,google,tomorrow\n', ['--dry-run'], env);
    assert.equal(bad.res.code, 1);
    assert.match(bad.res.stderr, /^ {2}record 1 \(CSV line 2\), field Rating: must be a whole number from 1 to 5; given "five"$/m);
    assert.match(bad.res.stderr, /^ {2}record 1 \(CSV line 2\), field OWNER_REPLY_DATE: must be a date written YYYY-MM-DD, e\.g\. 2026-03-14 \(the reply's date, needed with owner_reply_text\); given "tomorrow"$/m);
    // A column the file leaves out is named as the docs name it.
    assert.match(bad.res.stderr, /^ {2}record 1 \(CSV line 2\), field owner_reply_text: required, but missing$/m);
    const missing = await importing(dir, 'missing.csv', 'Author, Rating, Date\nEve,5,2026-03-01\n', ['--dry-run'], env);
    assert.equal(missing.res.stderr, 'reviewcast import: CSV header has no "source" column, which every review needs; nothing was imported (required: author, rating, date, source; found: Author, Rating, Date)\n');
  });

  it('empty header cells over empty cells (Excel\'s trailing columns) are left out; one over a value is refused, naming its column', async () => {
    const { dir, db, env, before } = await seeded();
    const files = [
      ['trailing.csv', 'author,rating,date,text,source,,\r\nEve,5,2026-03-01,Great,google,,\r\nFay,4,2026-03-02,"Fine, ok",yelp,,\r\n'],
      ['trailing-semicolons.csv', 'author;rating;date;text;source;;\r\nEve;5;2026-03-01;Great;google;;\r\nFay;4;2026-03-02;Fine, ok;yelp; ;\r\n'],
      ['between.csv', 'author,,rating,date,text,source\nEve,,5,2026-03-01,Great,google\nFay,,4,2026-03-02,"Fine, ok",yelp\n'],
    ] as const;
    await dryRunsSay(dir, env, files, 'dry run, nothing written: would be 2 added, 0 updated, 0 removed, 0 unchanged\n');
    const { res } = await importing(dir, 'value.csv', 'author,rating,date,text,source,,\nEve,5,2026-03-01,Great,google,,\nFay,4,2026-03-02,Fine,yelp,,extra note\n', [], env);
    assert.equal(res.code, 1);
    assert.equal(
      res.stderr,
      'reviewcast import: CSV column 7 has no name in the header row, but record 2 (CSV line 3) has "extra note" in it; name the column in the header row (known: id, author, author_avatar_url, rating, date, text, source, source_url, owner_reply_text, owner_reply_date, verified, source_id) or empty its cells (a column with no name is left out only when all its cells are empty)\n',
    );
    assert.deepEqual(await contents(db), before);
  });

  it('a first line "sep=," or "sep=;" (Excel writes and reads it) names the separator and is skipped; lines count from it', async () => {
    const { dir, db, env } = await seeded();
    const semicolons = '\ufeffsep=;\r\nauthor;rating;date;text;source\r\nEve;5;2026-03-01;Good, fast;google\r\n';
    const commas = 'sep=,\nauthor,rating,date,text,source\nFay,4,2026-03-02,so-so; slow,yelp\n';
    // UTF-16 "Unicode text" with a sep line for its tabs.
    const tabs = Buffer.from('\ufeffsep=\t\r\nauthor\trating\tdate\tsource\r\nGus\t3\t2026-03-03\tgoogle\r\n', 'utf16le');
    for (const [name, content] of [['semi.csv', semicolons], ['commas.csv', commas], ['tabs.csv', tabs]] as const) {
      const { res } = await importing(dir, name, content, [], env);
      assert.equal(res.code, 0, `${name}: ${res.stderr}`);
    }
    const got = await byAuthor(db);
    assert.deepEqual([got.get('Eve')?.text, got.get('Fay')?.text, got.has('Gus')], ['Good, fast', 'so-so; slow', true]);
    const bad = await importing(dir, 'bad.csv', 'sep=;\nauthor;rating;date;source\nHal;5;2026-03-04;google\nIda;five;2026-03-05;google\n', [], env);
    assert.equal(bad.res.code, 1);
    assert.match(bad.res.stderr, /^ {2}record 2 \(CSV line 4\), field rating: must be a whole number from 1 to 5; given "five"$/m);
    const other = await importing(dir, 'pipes.csv', 'sep=|\nauthor|rating|date|source\nHal|5|2026-03-04|google\n', [], env);
    assert.equal(other.res.code, 1);
    assert.equal(other.res.stderr, 'reviewcast import: the CSV file\'s first line "sep=|" names "|" as the separator; cells may be separated only by commas, semicolons or tabs: save the file with one of those\n');
  });
});

describe('reviewcast import: line breaks inside texts', () => {
  it('are line feeds from any file, so a review from a Windows CSV, the same file saved with LF or CR endings and JSON is one review', async () => {
    const { dir, db, env } = await seeded();
    const windows = 'author,rating,date,text,source,owner_reply_text,owner_reply_date\r\nEve,5,2026-03-01,"Came on time.\r\nFixed it.",google,"Thanks!\r\nSee you",2026-03-02\r\n';
    const first = await importing(dir, 'windows.csv', windows, [], env);
    assert.equal(first.res.code, 0, first.res.stderr);
    const eve = (await byAuthor(db)).get('Eve')!;
    const same = 'dry run, nothing written: would be 0 added, 0 updated, 0 removed, 1 unchanged\n';
    const withId = `id,${windows.replace('\r\nEve,', `\r\n${eve.id},Eve,`)}`;
    const files = [
      // Without an id column the id derives from the text: not a second review.
      ['unix.csv', windows.replaceAll('\r\n', '\n')],
      // With one, not an update.
      ['unix-id.csv', withId.replaceAll('\r\n', '\n')],
      ['mac.csv', windows.replaceAll('\r\n', '\r')],
      ['windows.json', JSON.stringify([{ author: 'Eve', rating: 5, date: '2026-03-01', text: 'Came on time.\r\nFixed it.', source: 'google', owner_reply: { text: 'Thanks!\r\nSee you', date: '2026-03-02' } }])],
    ] as const;
    await dryRunsSay(dir, env, files, same);
    assert.deepEqual([eve.text, eve.reply], ['Came on time.\nFixed it.', 'Thanks!\nSee you']);
    // Google's texts too, whose translated comments keep the original after "(Original)".
    const google = { reviews: [{ reviewId: 'g-1', reviewer: { displayName: 'Fay' }, starRating: 'FOUR', createTime: '2026-03-03T10:00:00Z', comment: 'Quick.\r\n\r\n(Original)\r\nRapide.\r\nBien.', reviewReply: { comment: 'Merci\r\nFay', updateTime: '2026-03-04T10:00:00Z' } }] };
    const gbp = await importing(dir, 'google.json', JSON.stringify(google), [], env);
    assert.equal(gbp.res.code, 0, gbp.res.stderr);
    const fay = (await byAuthor(db)).get('Fay')!;
    assert.deepEqual([fay.text, fay.reply], ['Rapide.\nBien.', 'Merci\nFay']);
  });
});

describe('reviewcast import: white space around values and texts', () => {
  it('CSV values typed with spaces after the separators import as if written without them: the same reviews, the same ids', async () => {
    const { dir, db, env, before } = await seeded();
    const unchanged = (n: number) => `dry run, nothing written: would be 0 added, 0 updated, 0 removed, ${n} unchanged\n`;
    // FOUR as typed by hand, by a spreadsheet that pads cells, and with semicolons.
    const files = [
      ['typed.csv', FOUR.replaceAll(',', ', ')],
      ['padded.csv', FOUR.replaceAll(',', ' ,\t').replaceAll('\n', ' \n')],
      ['quoted.csv', FOUR.split('\n').map((line) => line.split(',').map((c) => (c === '' ? c : `" ${c} "`)).join(',')).join('\n')],
      ['semicolons.csv', FOUR.replaceAll(',', '; ')],
    ] as const;
    await dryRunsSay(dir, env, files, unchanged(4));
    assert.deepEqual(await contents(db), before);
    // Every column: one review from a tidy file, then the same typed with spaces, unchanged.
    const header = 'id,author,author_avatar_url,rating,date,text,source,source_url,owner_reply_text,owner_reply_date,verified';
    const tidy = `${header}\ncrm-7,Eve,https://example.com/eve.png,5,2026-03-01,"Came on time,  fixed it.",google,https://example.com/r/7,Thanks Eve,2026-03-02,yes\n`;
    const typed = `${header.replaceAll(',', ', ')}\n crm-7 , Eve, https://example.com/eve.png , 5 , 2026-03-01, "  Came on time,  fixed it. " , google , https://example.com/r/7, Thanks Eve , 2026-03-02 , Yes \n`;
    assert.equal((await importing(dir, 'tidy.csv', tidy, [], env)).res.code, 0);
    const again = await importing(dir, 'typed.csv', typed, ['--dry-run'], env);
    assert.equal(again.res.stdout, unchanged(1), again.res.stderr);
    // The inner spaces of a text are its own.
    assert.equal((await byAuthor(db)).get('Eve')?.text, 'Came on time,  fixed it.');
  });

  it('CSV: a line of spaces alone is a blank line, and lines still count it; a quoted cell followed by more than spaces is refused', async () => {
    const { dir, db, env, before } = await seeded();
    const { res } = await importing(dir, 'gaps.csv', 'author, rating, date, text, source\r\n  \r\nEve, 5, 2026-03-01, "Quick, tidy" , google\r\n \t \r\nFay, five, 2026-03-02, "Slow\r\nand late", google\r\n', [], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^reviewcast import: 1 invalid record; nothing was imported:\n {2}record 2 \(CSV lines 5-6\), field rating: must be a whole number from 1 to 5; given "five"\n$/);
    const quoting = 'a cell holding a comma, a line break or a double quote is written inside double quotes, and a double quote inside it is written twice: ""';
    const after = await importing(dir, 'after.csv', 'author, rating, date, text, source\nEve, 5, 2026-03-01, "Quick" and tidy, google\n', [], env);
    assert.equal(after.res.stderr, `reviewcast import: not valid CSV: on line 2 a quoted cell goes on after its closing double quote; check that line: ${quoting}\n`);
    assert.deepEqual(await contents(db), before);
  });

  it('a CSV cell of white space alone is empty; a value still wrong without its spaces is refused as it reads, and nothing is imported', async () => {
    const { dir, db, env, before } = await seeded();
    const blank = await importing(dir, 'blank.csv', 'author,rating,date,text,source,owner_reply_text,owner_reply_date,verified\nEve,5,2026-03-01,   ,google,  ,\t,  \n', ['--dry-run'], env);
    assert.equal(blank.res.code, 0, blank.res.stderr);
    const bad = await importing(dir, 'bad.csv', 'author, rating, date, source, owner_reply_text, owner_reply_date, verified\nEve, five , 2026-03-01, google,   , 2026-03-02, maybe \nFay, 4, 03/01/2026 , google, , , \n', [], env);
    assert.equal(bad.res.code, 1);
    assert.equal(
      bad.res.stderr,
      [
        'reviewcast import: 2 invalid records (4 problems); nothing was imported:',
        '  record 1 (CSV line 2), field rating: must be a whole number from 1 to 5; given "five"',
        '  record 1 (CSV line 2), field owner_reply_text: required, but missing',
        '  record 1 (CSV line 2), field verified: must be one of true/false, yes/no, y/n, 1/0 (any case), or empty for false; given "maybe"',
        '  record 2 (CSV line 3), field date: must be a date written YYYY-MM-DD, e.g. 2026-03-14; given "03/01/2026"',
        '',
      ].join('\n'),
    );
    assert.deepEqual(await contents(db), before);
  });

  it('texts lose the white space at their ends in every format, their inner white space kept: one review from CSV, JSON and Google files', async () => {
    const { dir, db, env } = await seeded();
    const csv = 'author,rating,date,text,source,owner_reply_text,owner_reply_date\nEve,5,2026-03-01,"Came on time.\n\n  Fixed it.",google,Thanks!,2026-03-02\n';
    assert.equal((await importing(dir, 'eve.csv', csv, [], env)).res.code, 0);
    const json = [{ author: ' Eve ', rating: 5, date: '2026-03-01', text: '\r\n  Came on time.\r\n\r\n  Fixed it. \t\r\n', source: 'google', owner_reply: { text: ' Thanks!\n', date: '2026-03-02' } }];
    const same = await importing(dir, 'eve.json', JSON.stringify(json), ['--dry-run'], env);
    assert.equal(same.res.stdout, 'dry run, nothing written: would be 0 added, 0 updated, 0 removed, 1 unchanged\n', same.res.stderr);
    const eve = (await byAuthor(db)).get('Eve')!;
    assert.deepEqual([eve.text, eve.reply], ['Came on time.\n\n  Fixed it.', 'Thanks!']);
    const google = {
      reviews: [
        { reviewId: 'g-2', reviewer: { displayName: 'Gus' }, starRating: 'THREE', createTime: '2026-03-05T10:00:00Z', comment: '\r\nGood.\r\n\r\n(Translated by Google)\r\nBien.', reviewReply: { comment: '  Thanks\r\nGus  ', updateTime: '2026-03-06T10:00:00Z' } },
        // A reply of white space alone is no reply, as an empty one is.
        { reviewId: 'g-3', reviewer: { displayName: 'Hal' }, starRating: 'FOUR', createTime: '2026-03-05T10:00:00Z', comment: ' Fine ', reviewReply: { comment: ' \r\n ', updateTime: '2026-03-06T10:00:00Z' } },
      ],
    };
    const gbp = await importing(dir, 'google.json', JSON.stringify(google), [], env);
    assert.equal(gbp.res.code, 0, gbp.res.stderr);
    const got = await byAuthor(db);
    assert.deepEqual([got.get('Gus')?.text, got.get('Gus')?.reply, got.get('Hal')?.text, got.get('Hal')?.reply], ['Good.', 'Thanks\nGus', 'Fine', null]);
  });

  it('JSON: an empty reply is refused; other values are taken as written, spaces and all; a Google comment that is no text is refused', async () => {
    const { dir, db, env, before } = await seeded();
    const json = [
      { author: 'Eve', rating: 5, date: '2026-03-01', source: 'google', owner_reply: { text: '', date: '2026-03-02' } },
      { author: 'Fay', rating: 4, date: ' 2026-03-01', source: 'google' },
    ];
    const { res } = await importing(dir, 'bad.json', JSON.stringify(json), [], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^ {2}record 1 \(\[0\]\), field owner_reply\.text: must not be empty; given ""$/m);
    assert.match(res.stderr, /^ {2}record 2 \(\[1\]\), field date: must be a date written YYYY-MM-DD, e\.g\. 2026-03-14; given " 2026-03-01"$/m);
    const google = { reviews: [{ reviewId: 'g-4', reviewer: { displayName: 'Ida' }, starRating: 'FIVE', createTime: '2026-03-05T10:00:00Z', comment: 5 }] };
    const gbp = await importing(dir, 'google.json', JSON.stringify(google), ['--format', 'gbp'], env);
    assert.equal(gbp.res.code, 1);
    assert.match(gbp.res.stderr, /^ {2}record 1 \(reviews\[0\], reviewId g-4\), field comment: must be text \(a string\); given 5$/m);
    assert.deepEqual(await contents(db), before);
  });

  it('JSON: a reply of white space alone is kept as before these rules (line breaks LF), so a store holding one re-imports its export unchanged', async () => {
    const { dir, db, env } = await seeded();
    const json = [{ author: 'Eve', rating: 5, date: '2026-03-01', source: 'google', owner_reply: { text: ' \r\n ', date: '2026-03-02' } }];
    const first = await importing(dir, 'blank-reply.json', JSON.stringify(json), [], env);
    assert.equal(first.res.code, 0, first.res.stderr);
    assert.equal((await byAuthor(db)).get('Eve')?.reply, ' \n ');
    const exported = await runCli(['export', join(dir, 'export.json')], env);
    assert.equal(exported.code, 0, exported.stderr);
    const again = await runCli(['import', join(dir, 'export.json'), '--dry-run'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /would be 0 added, 0 updated, 0 removed, 5 unchanged/);
  });

  it('validation tidies the texts of any format\'s records before their ids are derived', () => {
    const record = (text: string, reply: string) => ({ where: 'record 1', value: { author: 'Eve', rating: 5, date: '2026-03-01', text, source: 'google', owner_reply: { text: reply, date: '2026-03-02' } } });
    const [untidy] = validateRecords([record(' a\r\nb\rc \r\n', '\td\r\n')]);
    const [tidy] = validateRecords([record('a\nb\nc', 'd')]);
    assert.deepEqual([untidy!.text, untidy!.owner_reply?.text], ['a\nb\nc', 'd']);
    assert.equal(untidy!.id, tidy!.id);
  });
});

describe('reviewcast import: delimited text taken for JSON', () => {
  // Excel's "Unicode text": UTF-16 with its byte order mark, tab-separated, named .txt.
  const unicodeText = Buffer.from('\ufeffAuthor\tRating\tDate\tText\tSource\r\nEve\t5\t2026-03-01\tGreat\tgoogle\r\n', 'utf16le');
  // V8's message quotes the text it stopped at, line breaks and all.
  const hint = (kind: string) => new RegExp(`^reviewcast import: not valid JSON: .+; this looks like ${kind} \\(its first line names columns\\), not JSON: add --format csv\\n$`, 's');

  it('is refused with what it looks like and the option that reads it; with that option it imports', async () => {
    const { dir, db, env, before } = await seeded();
    const { file, res } = await importing(dir, 'reviews.txt', unicodeText, ['--dry-run'], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, hint('tab-separated text'));
    const comma = await importing(dir, 'reviews.json', 'sep=,\nauthor,rating,date,source\nEve,5,2026-03-01,google\n', [], env);
    assert.match(comma.res.stderr, hint('CSV'));
    assert.deepEqual(await contents(db), before);
    const csv = await runCli(['import', file, '--format', 'csv'], env);
    assert.equal(csv.code, 0, csv.stderr);
    assert.match(csv.stdout, /^imported 1 record: 1 added/);
  });

  it('says so for a file streamed past the whole-text limit too; JSON that is only broken, or --format json given, gets no such hint', async () => {
    const { dir, env } = await seeded();
    const file = join(dir, 'big.txt');
    writeFileSync(file, unicodeText);
    const store = await openTestStore(await freshDatabase());
    try {
      await assert.rejects(runImport(store, { file: await openImportFile(file), format: undefined, wholeTextBytes: 1, replace: false, dryRun: true, progress: false }), (err: Error) => {
        assert.ok(err instanceof ImportFileError, err.stack);
        assert.match(err.message, /^not valid JSON: .+ \(within the first \d+ bytes\); this looks like tab-separated text/);
        return true;
      });
    } finally {
      await store.close();
    }
    const asked = await runCli(['import', file, '--format', 'json'], env);
    assert.equal(asked.code, 1);
    assert.match(asked.stderr, /^reviewcast import: not valid JSON: [^;]+$/);
    const broken = await importing(dir, 'broken.json', '{"reviews": [{"author": "Eve", "rating": 5,', [], env);
    assert.equal(broken.res.code, 1);
    assert.doesNotMatch(broken.res.stderr, /looks like/);
    // One known name is no header: a note that mentions a date, say.
    const note = await importing(dir, 'note.txt', 'date, and more\n', [], env);
    assert.doesNotMatch(note.res.stderr, /looks like/);
  });
});

describe('reviewcast import: help and options', () => {
  it('--help or -h after a command prints the usage and exits 0, doing nothing else', async () => {
    const dir = tempDir();
    const db = join(dir, 'never.db');
    for (const args of [['import', '--help'], ['import', 'reviews.csv', '-h'], ['import', '--replace', '--help', 'x.csv'], ['export', '--help'], ['prepare', '-h'], ['hub', 'list', '--help'], ['serve', '--help']]) {
      const res = await runCli(args, { DATABASE_URL: db });
      assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
      assert.equal(res.stderr, '', args.join(' '));
      assert.ok(res.stdout.startsWith(USAGE_START), args.join(' '));
      assert.match(res.stdout, /--replace \[--allow-empty\]/);
    }
    if (TEST_STORE === 'sqlite') assert.equal(existsSync(db), false);
  });

  it('an unknown option is named as typed, with the option it probably means, then the usage, exit 2; nothing is imported', async () => {
    const { dir, db, env, before } = await seeded();
    const file = join(dir, 'header.csv');
    writeFileSync(file, 'author,rating,date,source\n');
    for (const [args, said] of [
      [['import', file, '--repalce'], 'unknown option --repalce; did you mean --replace?'],
      [['import', file, '--dry'], 'unknown option --dry; did you mean --dry-run?'],
      [['import', '--fromat', 'csv', file], 'unknown option --fromat; did you mean --format?'],
      [['import', file, '--allow-empyt', '--replace'], 'unknown option --allow-empyt; did you mean --allow-empty?'],
      [['import', file, '--zzz'], 'unknown option --zzz'],
      [['import', file, '-x'], 'unknown option -x'],
      [['hub', 'list', '--jsn'], 'unknown option --jsn; did you mean --json?'],
      [['export', '--hlep'], 'unknown option --hlep; did you mean --help?'],
    ] as const) {
      const res = await runCli([...args], env);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.ok(res.stderr.startsWith(`reviewcast: ${said}\n\n${USAGE_START}`), res.stderr);
      assert.equal(res.stdout, '');
    }
    const extra = await runCli(['serve', 'now'], env);
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /^reviewcast: serve takes no arguments: its settings are environment variables/);
    assert.deepEqual(await contents(db), before);
  });
});
