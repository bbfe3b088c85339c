import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { z } from 'zod';
import pg from 'pg';
import { CSV_COLUMNS } from '../src/cli/formats/csv.js';
import { GBP_SPELLINGS } from '../src/cli/formats/gbp.js';
import { ImportFileError } from '../src/cli/formats/types.js';
import { FileAccessError, openImportFile, PreparationError, prepareRevision, runImport, WHOLE_TEXT_BYTES, type ImportFile, type ImportFormat } from '../src/cli/import-command.js';
import { datasetJson, reviewsDataset } from '../src/core/dataset.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { canonicalReview } from '../src/core/reviews.js';
import { ReviewInputSchema } from '../src/core/schema/review.js';
import { postgresMigrations } from '../src/store/postgres/migrations.js';
import { sqliteMigrations } from '../src/store/sqlite/migrations.js';
import { INSIGHTS_KEPT } from '../src/snapshot/snapshot.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { ROOT, TEST_STORE, eventually, freePort, freshDatabase, openTestStore, pipedCli, runCli, startTestService, tempDir } from './helpers.js';

async function setup() {
  const dir = tempDir();
  const db = await freshDatabase();
  return { dir, db, env: { DATABASE_URL: db } };
}

/** Whether the service at `url` serves `count` reviews within `ms`. */
function servesReviews(url: string, count: number, ms: number): Promise<boolean> {
  return eventually(async () => ((await (await fetch(`${url}/reviews.json`)).json()) as { reviews: unknown[] }).reviews.length === count, ms);
}

/** What an SQLite database keeps for its revisions (table `kept`), by name. */
function keptRows(db: string): { name: string; bytes: Buffer }[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare<[], { name: string; bytes: Buffer }>('SELECT name, bytes FROM kept ORDER BY name').all();
  } finally {
    conn.close();
  }
}

async function stored(db: string) {
  const store = await openTestStore(db);
  try {
    return await store.load();
  } finally {
    await store.close();
  }
}

const CSV = `author,rating,date,text,source,source_url,owner_reply_text,owner_reply_date,verified
"Ann, B.",5,2026-01-02,"Great job, ""fast"" too",google,https://reviews.example.com/g/1,Thanks Ann!,2026-01-03,true
Carl,2,2026-01-05,,yelp,,,,no
`;

const GBP = {
  reviews: [
    {
      reviewId: 'AbCdEf123',
      reviewer: { displayName: 'Gina', profilePhotoUrl: 'https://lh3.example.com/photo.png' },
      starRating: 'FOUR',
      comment: 'Fixed our furnace quickly.',
      createTime: '2026-02-03T17:45:00.123Z',
      updateTime: '2026-02-03T17:45:00.123Z',
      reviewReply: { comment: 'Thanks Gina!', updateTime: '2026-02-04T09:00:00Z' },
    },
    {
      reviewId: 'XyZ987',
      reviewer: { displayName: 'Hank' },
      starRating: 'ONE',
      comment: 'Trop cher.\n\n(Translated by Google)\nToo expensive.',
      createTime: '2026-02-05T10:00:00Z',
    },
  ],
  averageRating: 2.5,
  totalReviewCount: 2,
};

describe('reviewcast import', () => {
  it('imports the /reviews.json shape with its business, and re-importing the same file changes nothing', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'data.json');
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews: REVIEWS }));
    const first = await runCli(['import', file], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /8 added, 0 updated, 0 removed, 0 unchanged; business profile updated; revision 0 -> 1/);
    const again = await runCli(['import', file], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 added, 0 updated, 0 removed, 8 unchanged; revision 1 \(no change\)/);
    const data = await stored(db);
    assert.equal(data.revision.revision, 1);
    assert.equal(data.business?.name, BUSINESS.name);
  });

  it('imports a bare array and gives id-less reviews stable ids', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'bare.json');
    const noIds = REVIEWS.slice(0, 3).map(({ id: _id, ...rest }) => rest);
    // Two identical rating-only reviews on one day are two reviews, not one.
    const twin = { author: 'A Google user', rating: 5, date: '2026-06-01', source: 'google' };
    writeFileSync(file, JSON.stringify([...noIds, twin, twin]));
    assert.equal((await runCli(['import', file], env)).code, 0);
    const ids1 = (await stored(db)).reviews.map((r) => r.id).sort();
    assert.equal(ids1.length, 5);
    const again = await runCli(['import', file], env);
    assert.match(again.stdout, /0 added, 0 updated, 0 removed, 5 unchanged/);
    assert.deepEqual((await stored(db)).reviews.map((r) => r.id).sort(), ids1);
    for (const id of ids1) assert.match(id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('imports CSV with quoting, empty cells and owner replies', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'reviews.csv');
    writeFileSync(file, CSV);
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 0, res.stderr);
    const byAuthor = new Map((await stored(db)).reviews.map((r) => [r.author, r]));
    const ann = byAuthor.get('Ann, B.')!;
    assert.equal(ann.text, 'Great job, "fast" too');
    assert.deepEqual(ann.owner_reply, { text: 'Thanks Ann!', date: '2026-01-03' });
    assert.equal(ann.verified, true);
    assert.equal(ann.source_url, 'https://reviews.example.com/g/1');
    const carl = byAuthor.get('Carl')!;
    assert.deepEqual([carl.text, carl.owner_reply, carl.verified, carl.source_url], [null, null, false, null]);
  });

  it('imports a Google Business Profile reviews list', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'gbp.json');
    writeFileSync(file, JSON.stringify(GBP));
    const res = await runCli(['import', file, '--format', 'gbp'], env);
    assert.equal(res.code, 0, res.stderr);
    const byAuthor = new Map((await stored(db)).reviews.map((r) => [r.author, r]));
    const gina = byAuthor.get('Gina')!;
    assert.deepEqual(
      { rating: gina.rating, date: gina.date, source: gina.source, verified: gina.verified, avatar: gina.author_avatar_url, reply: gina.owner_reply },
      { rating: 4, date: '2026-02-03', source: 'google', verified: true, avatar: 'https://lh3.example.com/photo.png', reply: { text: 'Thanks Gina!', date: '2026-02-04' } },
    );
    assert.equal(byAuthor.get('Hank')!.text, 'Trop cher.');
    assert.deepEqual([gina.source_id, byAuthor.get('Hank')!.source_id], ['AbCdEf123', 'XyZ987']);
    // The Google review id is the merge key: an edited comment updates the same review.
    const edited = structuredClone(GBP);
    edited.reviews[0]!.comment = 'Fixed our furnace quickly. Update: still running great.';
    writeFileSync(file, JSON.stringify(edited));
    // Without --format the export is recognised by its fields (reviewId, starRating).
    const res2 = await runCli(['import', file], env);
    assert.match(res2.stdout, /0 added, 1 updated, 0 removed, 1 unchanged/);
  });

  it('is atomic: one invalid record and nothing is written; the error names record and field', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'bad.json');
    const bad = [REVIEWS[0], { ...REVIEWS[1], rating: 7 }, REVIEWS[2], { ...REVIEWS[3], date: '2026-02-30', colour: 'red' }];
    writeFileSync(file, JSON.stringify(bad));
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /2 invalid records \(3 problems\); nothing was imported/);
    assert.match(res.stderr, /record 2 \(\[1\]\), field rating: .*5/);
    assert.match(res.stderr, /record 4 \(\[3\]\), field date/);
    assert.match(res.stderr, /record 4 \(\[3\]\), field \(record\): unknown field\(s\): colour/);
    const data = await stored(db);
    assert.equal(data.reviews.length, 0);
    assert.equal(data.revision.revision, 0);
  });

  it('names the CSV line of a bad row', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'author,rating,date,source\nOk,5,2026-01-01,google\nBad,five,2026-01-01,google\n');
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /1 invalid record; nothing was imported/);
    assert.match(res.stderr, /record 2 \(CSV line 3\), field rating: must be a whole number from 1 to 5; given "five"/);
    assert.equal((await stored(db)).reviews.length, 0);
    writeFileSync(file, 'author,stars\nX,5\n');
    const header = await runCli(['import', file], env);
    assert.equal(header.code, 1);
    assert.match(header.stderr, /unknown column\(s\): stars/);
    writeFileSync(file, 'author,rating,date,source,author\nX,5,2026-01-01,google,Y\n');
    const twice = await runCli(['import', file], env);
    assert.equal(twice.code, 1);
    assert.equal(twice.stderr, 'reviewcast import: CSV header names column(s) more than once: author\n');
  });

  it('rejects duplicate ids, bad JSON, a missing file and a bad format flag', async () => {
    const { dir, env } = await setup();
    const dup = join(dir, 'dup.json');
    writeFileSync(dup, JSON.stringify([REVIEWS[0], REVIEWS[0]]));
    const d = await runCli(['import', dup], env);
    assert.equal(d.code, 1);
    assert.match(d.stderr, /duplicate id/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"reviews": [');
    const b = await runCli(['import', broken], env);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /not valid JSON/);
    // A mistyped file name is a usage problem (exit 2), said in one line, and no database is made for it.
    const never = join(dir, 'never.db');
    const missing = await runCli(['import', join(dir, 'missing.json')], { DATABASE_URL: never });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `reviewcast import: cannot read ${join(dir, 'missing.json')}: no such file\n`);
    assert.equal(existsSync(never), false);
    const folder = await runCli(['import', dir], env);
    assert.equal(folder.code, 2);
    assert.equal(folder.stderr, `reviewcast import: cannot read ${dir}: it is a folder, not a file\n`);
    const unwritable = await runCli(['export', join(dir, 'no-such-folder', 'out.json')], env);
    assert.equal(unwritable.code, 2);
    assert.equal(unwritable.stderr, `reviewcast export: cannot write ${join(dir, 'no-such-folder', 'out.json')}: no such folder\n`);
    const flag = await runCli(['import', dup, '--format', 'xml'], env);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--format must be one of json, csv, gbp/);
  });

  it('--replace makes the stored set exactly the file; --dry-run writes nothing', async () => {
    const { dir, db, env } = await setup();
    const all = join(dir, 'all.json');
    const some = join(dir, 'some.json');
    writeFileSync(all, JSON.stringify(REVIEWS));
    const changed = { ...REVIEWS[0]!, text: 'Edited text' };
    writeFileSync(some, JSON.stringify([changed, REVIEWS[1]]));
    await runCli(['import', all], env);
    const dry = await runCli(['import', some, '--replace', '--dry-run'], env);
    assert.equal(dry.code, 0);
    assert.match(dry.stdout, /dry run, nothing written: would be 0 added, 1 updated, 6 removed, 1 unchanged/);
    assert.equal((await stored(db)).reviews.length, 8);
    const merge = await runCli(['import', some], env);
    assert.match(merge.stdout, /0 added, 1 updated, 0 removed, 1 unchanged/);
    assert.equal((await stored(db)).reviews.length, 8);
    const replace = await runCli(['import', some, '--replace'], env);
    assert.match(replace.stdout, /0 added, 0 updated, 6 removed, 2 unchanged/);
    const data = await stored(db);
    assert.deepEqual(data.reviews.map((r) => r.id).sort(), [REVIEWS[0]!.id, REVIEWS[1]!.id].sort());
    assert.equal(data.reviews.find((r) => r.id === REVIEWS[0]!.id)!.text, 'Edited text');
  });

  it('keeps the insights of the revision it made; if it cannot, it says so on stderr and the import stands', { skip: TEST_STORE !== 'sqlite' && 'the failure is made with an SQLite trigger' }, async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'all.json');
    writeFileSync(file, JSON.stringify(REVIEWS));
    const first = await runCli(['import', file], env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stderr, '');
    assert.deepEqual(keptRows(db).map((r) => r.name.split(':')[0]).sort(), ['/insights.json'], 'the revision\'s insights are kept');
    // The store refuses to keep anything from now on.
    const raw = new Database(db);
    raw.exec(`CREATE TRIGGER refuse_kept BEFORE INSERT ON kept BEGIN SELECT RAISE(ABORT, 'no room to keep it'); END;`);
    raw.close();
    writeFileSync(file, JSON.stringify([{ ...REVIEWS[0]!, text: 'Edited text' }]));
    const second = await runCli(['import', file], env);
    assert.equal(second.code, 0, 'the import stands');
    assert.match(second.stdout, /0 added, 1 updated, 0 removed, 0 unchanged; revision 1 -> 2\n$/);
    assert.match(second.stderr, /^reviewcast import: the insights were not prepared \(no room to keep it\); the service analyses the reviews when it next loads this revision\n$/);
    assert.equal((await stored(db)).reviews.find((r) => r.id === REVIEWS[0]!.id)!.text, 'Edited text');
  });

  it('with BASE_URL it keeps the documents too: the first start after it keeps nothing new; if it cannot, it says so on stderr and the import stands', { skip: TEST_STORE !== 'sqlite' && 'the store is read and the failure made with SQLite' }, async () => {
    const { dir, db } = await setup();
    const BASE = 'https://reviews.example.test';
    const env = { DATABASE_URL: db, BASE_URL: BASE };
    const file = join(dir, 'all.json');
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews: REVIEWS }));
    // From source: what it keeps is named for its build, read here with this process's (runCli).
    const first = await runCli(['import', file], env, undefined, 'source');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stderr, '');
    const kept = () => keptRows(db).map((r) => `${r.name.split(':')[0]} ${r.bytes.toString('base64')}`);
    const made = kept();
    assert.deepEqual(
      made.map((k) => k.split(' ').slice(0, -1).join(' ').replace(/ \S+,\d{4}-\d{2}-\d{2}$/, ' <tag>')).sort(),
      [
        '/api/feed.json br <tag>',
        '/api/feed.json gzip <tag>',
        '/feed.xml br <tag>',
        '/feed.xml gzip <tag>',
        '/insights.json',
        '/insights.json br',
        '/reviews.json br',
        '/reviews.json gzip',
        '/reviews.json index',
        'search index',
      ],
      'the insights and the documents a starting service makes are kept',
    );
    const svc = await startTestService({ database: db, baseUrl: BASE });
    try {
      assert.equal((await fetch(`${svc.url}/insights.json`)).status, 200);
    } finally {
      await svc.close();
    }
    assert.deepEqual(kept(), made, 'the first start read what the import kept and made nothing new');
    // The store refuses to keep a feed from now on: the insights are kept, the documents are not.
    const raw = new Database(db);
    raw.exec(`CREATE TRIGGER refuse_feeds BEFORE INSERT ON kept WHEN NEW.name LIKE '/feed.xml%' BEGIN SELECT RAISE(ABORT, 'no room for feeds'); END;`);
    raw.close();
    writeFileSync(file, JSON.stringify([{ ...REVIEWS[0]!, text: 'Edited text' }]));
    const second = await runCli(['import', file], env, undefined, 'source');
    assert.equal(second.code, 0, 'the import stands');
    assert.match(second.stdout, /revision 1 -> 2\n$/);
    assert.match(second.stderr, /^reviewcast import: the documents for https:\/\/reviews\.example\.test were not prepared \(no room for feeds\); the service makes them when it next loads this revision\n$/);
    const store = await openTestStore(db);
    try {
      assert.equal(await store.hasKept(2, INSIGHTS_KEPT), true, 'the insights of the new revision are kept');
    } finally {
      await store.close();
    }
  });
});

describe('prepareRevision: the store failing at any step', () => {
  it('a failing look at the revision is a PreparationError saying what was and was not made, at each step', async () => {
    const db = await freshDatabase();
    const seed = await openTestStore(db);
    await seed.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
    await seed.close();
    const BASE = 'https://reviews.example.test';
    // `failAt` fails that call of the store's getRevision (0: none); each run finds the insights kept by the first.
    const run = async (failAt: number) => {
      const store = await openTestStore(db);
      let checks = 0;
      const failing = new Proxy(store, {
        get(target, name, receiver) {
          if (name !== 'getRevision') return Reflect.get(target, name, receiver) as unknown;
          return async () => {
            if (++checks === failAt) throw new Error('the store went away');
            return target.getRevision();
          };
        },
      });
      try {
        return { done: await prepareRevision(failing, { progress: false, baseUrl: BASE, always: true }), checks };
      } finally {
        await store.close();
      }
    };
    assert.equal((await run(0)).done.insights, 'analysed');
    const { done, checks } = await run(0);
    assert.deepEqual([done.insights, done.documents], ['kept already', true]);
    const messages: string[] = [];
    for (let failAt = 1; failAt <= checks; failAt++) {
      await assert.rejects(run(failAt), (err: unknown) => {
        assert.ok(err instanceof PreparationError, `check ${failAt}: ${String(err)}`);
        messages.push(err.message);
        return true;
      });
    }
    assert.ok(messages.length >= 2, messages.join('\n'));
    for (const m of messages.slice(0, -1)) assert.match(m, /^the insights were not prepared \(the store went away\)/);
    assert.equal(messages.at(-1), `the documents for ${BASE} were made and kept for revision 1, but whether the reviews changed meanwhile could not be checked (the store went away); a service on a newer revision makes its own`);
  });
});

describe('reviewcast import: what an invalid record is told', () => {
  it('CSV: names the record and its lines, quotes the value given and lists what the column accepts', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'bad.csv');
    // The first review's text spans two lines, so the next record starts on line 4.
    writeFileSync(
      file,
      'author,rating,date,text,source,verified,owner_reply_text\nAnn,5,2026-01-01,"Two\nlines",google,maybe,Thanks\nBob,4,2026-13-01,,google,YES,\n\nCy,4,14/03/2026,,google,n,\n',
    );
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.equal(
      res.stderr,
      [
        'reviewcast import: 3 invalid records (4 problems); nothing was imported:',
        "  record 1 (CSV lines 2-3), field owner_reply_date: required, but missing (must be a date written YYYY-MM-DD, e.g. 2026-03-14 (the reply's date, needed with owner_reply_text))",
        '  record 1 (CSV lines 2-3), field verified: must be one of true/false, yes/no, y/n, 1/0 (any case), or empty for false; given "maybe"',
        '  record 2 (CSV line 4), field date: must be a date written YYYY-MM-DD, e.g. 2026-03-14; given "2026-13-01"',
        '  record 3 (CSV line 6), field date: must be a date written YYYY-MM-DD, e.g. 2026-03-14; given "14/03/2026"',
        '',
      ].join('\n'),
    );
    assert.equal((await stored(db)).reviews.length, 0);
  });

  it('Google Business Profile: names the field as Google spells it (starRating, createTime) and lists its values', async () => {
    const { dir, env } = await setup();
    const file = join(dir, 'gbp.json');
    const bad = structuredClone(GBP);
    bad.reviews[1]!.starRating = 'SIX';
    bad.reviews[1]!.createTime = 'yesterday';
    writeFileSync(file, JSON.stringify(bad));
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.equal(
      res.stderr,
      [
        'reviewcast import: 1 invalid record (2 problems); nothing was imported:',
        '  record 2 (reviews[1], reviewId XyZ987), field starRating: must be one of ONE, TWO, THREE, FOUR, FIVE; given "SIX"',
        '  record 2 (reviews[1], reviewId XyZ987), field createTime: must be a timestamp such as "2026-02-03T17:45:00Z"; given "yesterday"',
        '',
      ].join('\n'),
    );
  });

  it('JSON: records count from 1 beside their 0-based path; a missing field, a string for a boolean and unknown fields are said plainly', async () => {
    const { dir, env } = await setup();
    const file = join(dir, 'bad.json');
    const noAuthor: Record<string, unknown> = { ...REVIEWS[2] };
    delete noAuthor.author;
    writeFileSync(file, JSON.stringify({ reviews: [REVIEWS[0], { ...REVIEWS[1], verified: 'yes', stars: 5 }, noAuthor] }));
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^ {2}record 2 \(reviews\[1\]\), field verified: must be true or false; given "yes"$/m);
    assert.match(res.stderr, /^ {2}record 2 \(reviews\[1\]\), field \(record\): unknown field\(s\): stars; known fields: id, author, .*, verified, source_id, url$/m);
    assert.match(res.stderr, /^ {2}record 3 \(reviews\[2\]\), field author: required, but missing$/m);
  });
  it('JSON: a business profile problem names its path with list indexes and the value given', async () => {
    const { dir, env } = await setup();
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify({ business: { ...BUSINESS, technicians: [{ name: 'Al' }, { name: '' }], time_zone: 'Mars/Olympus' }, reviews: [] }));
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^ {2}business, field technicians\[1\]\.name: must not be empty; given ""$/m);
    assert.match(res.stderr, /^ {2}business, field time_zone: must be an IANA time zone such as "America\/Los_Angeles"; given "Mars\/Olympus"$/m);
  });
});

/** The rows of the markdown table under `heading` in docs/import.md: first cell (unquoted) -> second cell. */
function docTable(heading: string): Map<string, string> {
  const doc = readFileSync(join(ROOT, 'docs/import.md'), 'utf8');
  const start = doc.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/import.md has no "${heading}" section`);
  const rows = doc.slice(start).split('\n\n').find((block) => block.startsWith('|'));
  assert.ok(rows, `no table under "${heading}"`);
  return new Map(
    rows.split('\n').slice(2).map((line) => {
      const cells = line.split('|').map((c) => c.trim());
      return [cells[1]!.replace(/`/g, ''), cells[2]!] as const;
    }),
  );
}

describe('docs/import.md lists each format\'s fields as the schema has them', () => {
  const schema = z.toJSONSchema(ReviewInputSchema, { io: 'input' }) as { properties: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const yes = (cell: string) => cell.startsWith('yes');
  it('json: every review field, required exactly when the schema requires it', () => {
    const table = docTable('**json** review fields:');
    assert.deepEqual([...table.keys()].sort(), Object.keys(schema.properties).sort());
    for (const [field, cell] of table) assert.equal(yes(cell), required.has(field), `${field}: "${cell}"`);
  });
  it('csv: every column the reader knows, required exactly when its field is', () => {
    const table = docTable('**csv** columns:');
    assert.deepEqual([...table.keys()], [...CSV_COLUMNS]);
    for (const [column, cell] of table) assert.equal(yes(cell), required.has(column), `${column}: "${cell}"`);
  });
  it('gbp: every Google field the reader takes, required exactly when the field it fills is', () => {
    const table = docTable('**gbp** fields:');
    const spelt = new Map(Object.entries(GBP_SPELLINGS).map(([field, s]) => [s!.name!, field]));
    // reviewer.isAnonymous fills no field of its own: it stands in for a missing displayName.
    assert.deepEqual([...table.keys()].filter((k) => k !== 'reviewer.isAnonymous').sort(), [...spelt.keys()].sort());
    for (const [name, field] of spelt) assert.equal(yes(table.get(name)!), required.has(field), `${name}: "${table.get(name)}"`);
  });
});

describe('reviewcast import over the seeded demo', () => {
  /** A database as `reviewcast serve` leaves an empty one: the demo profile and its reviews. */
  async function demoDatabase() {
    const ctx = await setup();
    const store = await openTestStore(ctx.db);
    try {
      await store.importReviews({ reviews: demoReviews(), business: DEMO_BUSINESS, replace: false, dryRun: false });
    } finally {
      await store.close();
    }
    const file = join(ctx.dir, 'mine.csv');
    writeFileSync(file, 'author,rating,date,text,source,owner_reply_text,owner_reply_date\nAnn,5,2026-01-02,Marco fixed it fast,google,Thanks Ann!,2026-01-03\n');
    return { ...ctx, file };
  }

  it('a merge keeps the demo profile and says so loudly, with the demo reviews left', async () => {
    const { db, env, file } = await demoDatabase();
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^imported 1 record: 1 added, 0 updated, 0 removed, 0 unchanged; revision 1 -> 2\n$/);
    assert.match(res.stderr, /^reviewcast import: WARNING: the business profile is still the DEMO one \("Northwind Home Services", fictional\).*; 320 DEMO reviews \(fictional\) remain \(--replace drops them.*\); import your profile with a JSON file holding \{"business"/);
    assert.equal(res.stderr.trim().split('\n').length, 1);
    assert.equal((await stored(db)).business?.name, DEMO_BUSINESS.name);
  });

  it('--replace drops the demo profile with the demo reviews (a dry run says it would); the page names no demo company, technician or phone', async () => {
    const { db, env, file } = await demoDatabase();
    const dry = await runCli(['import', file, '--replace', '--dry-run'], env);
    assert.match(dry.stdout, /would be 1 added, 0 updated, 320 removed, 0 unchanged; demo business profile removed\n$/);
    assert.match(dry.stderr, /the DEMO business profile \("Northwind Home Services".*\) would go with the demo reviews/);
    assert.equal((await stored(db)).business?.name, DEMO_BUSINESS.name);
    const res = await runCli(['import', file, '--replace'], env);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /1 added, 0 updated, 320 removed, 0 unchanged; demo business profile removed; revision 1 -> 2\n$/);
    assert.match(res.stderr, /went with the demo reviews; until you import yours the pages name the business "Unnamed business": import your profile/);
    const data = await stored(db);
    assert.deepEqual(data.business, { name: 'Unnamed business', service_areas: [], services: [], technicians: [] });
    const served = await startTestService({ database: db });
    try {
      const page = await (await fetch(`${served.url}/`)).text();
      assert.match(page, /Thanks Ann!/);
      for (const demo of ['Northwind', DEMO_BUSINESS.telephone!, 'Dwayne', '>Technicians<']) assert.ok(!page.includes(demo), `the page still shows ${demo}`);
    } finally {
      await served.close();
    }
    // Once gone it stays gone: the next imports say nothing of a demo.
    const again = await runCli(['import', file, '--replace'], env);
    assert.equal(again.stderr, '');
  });

  it('never replaces a profile the operator imported, and warns of demo reviews kept beside it', async () => {
    const { dir, db, env, file } = await demoDatabase();
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify({ business: BUSINESS, reviews: [] }));
    const own = await runCli(['import', profile], env);
    assert.match(own.stdout, /business profile updated/);
    assert.match(own.stderr, /^reviewcast import: WARNING: 320 DEMO reviews \(fictional\) remain beside yours; import with --replace to drop them\n$/);
    const res = await runCli(['import', file, '--replace'], env);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, '');
    assert.doesNotMatch(res.stdout, /business profile/);
    assert.equal((await stored(db)).business?.name, BUSINESS.name);
  });
});

describe('reviewcast import: ids from the source system', () => {
  // Reviews as a CRM or a review site exports them: their own ids, none of them a ULID.
  const FOREIGN = [
    { id: 'crm-1001', author: 'Ivy', rating: 5, date: '2026-03-01', text: 'Spotless work.', source: 'acme-crm' },
    { id: '42', author: 'Jon', rating: 3, date: '2026-03-02', text: 'Late but fine.', source: 'acme-crm' },
    { id: 'ChZDSUhNMG9nS0VJQ0FnSURRdG5fbxAB', author: 'Kim', rating: 4, date: '2026-03-03', source: 'google' },
  ];

  it('JSON: keeps each foreign id as source_id under a stable ULID; re-importing changes nothing; an edit updates in place', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'crm.json');
    writeFileSync(file, JSON.stringify({ reviews: FOREIGN }));
    const first = await runCli(['import', file], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /3 added, 0 updated, 0 removed, 0 unchanged; revision 0 -> 1/);
    const data = await stored(db);
    assert.deepEqual(data.reviews.map((r) => r.source_id).sort(), ['42', 'ChZDSUhNMG9nS0VJQ0FnSURRdG5fbxAB', 'crm-1001']);
    for (const r of data.reviews) assert.match(r.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    const again = await runCli(['import', file], env);
    assert.match(again.stdout, /0 added, 0 updated, 0 removed, 3 unchanged; revision 1 \(no change\)/);
    assert.deepEqual((await stored(db)).reviews, data.reviews);
    // Edited in the source system: same foreign id, new text and rating.
    writeFileSync(file, JSON.stringify({ reviews: [{ ...FOREIGN[1], rating: 4, text: 'Late, but they called ahead.' }, FOREIGN[0], FOREIGN[2]] }));
    const edit = await runCli(['import', file], env);
    assert.match(edit.stdout, /0 added, 1 updated, 0 removed, 2 unchanged; revision 1 -> 2/);
    const after = await stored(db);
    assert.equal(after.reviews.length, 3);
    const jon = after.reviews.find((r) => r.source_id === '42')!;
    assert.equal(jon.id, data.reviews.find((r) => r.source_id === '42')!.id);
    assert.deepEqual([jon.rating, jon.text], [4, 'Late, but they called ahead.']);
    // Reviews with our own ids, or none, have no source id.
    const ours = join(dir, 'ours.json');
    writeFileSync(ours, JSON.stringify([REVIEWS[0], { author: 'Lee', rating: 5, date: '2026-03-04', source: 'website' }]));
    assert.equal((await runCli(['import', ours], env)).code, 0);
    const plain = (await stored(db)).reviews.filter((r) => r.author === 'Lee' || r.id === REVIEWS[0]!.id);
    assert.deepEqual(plain.map((r) => r.source_id), [null, null]);
  });

  it('CSV: the id column (or source_id) takes foreign ids the same way, to the same ULIDs as JSON', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'crm.csv');
    writeFileSync(file, 'id,author,rating,date,text,source\ncrm-1001,Ivy,5,2026-03-01,Spotless work.,acme-crm\n42,Jon,3,2026-03-02,Late but fine.,acme-crm\n');
    assert.equal((await runCli(['import', file], env)).code, 0);
    const csv = await stored(db);
    assert.deepEqual(csv.reviews.map((r) => r.source_id).sort(), ['42', 'crm-1001']);
    const again = await runCli(['import', file], env);
    assert.match(again.stdout, /0 added, 0 updated, 0 removed, 2 unchanged/);
    writeFileSync(file, 'author,rating,date,text,source,source_id\nIvy,5,2026-03-01,Spotless work!,acme-crm,crm-1001\n');
    const edit = await runCli(['import', file], env);
    assert.match(edit.stdout, /0 added, 1 updated, 0 removed, 0 unchanged/);
    // The same reviews from a JSON file land on the same ids.
    const other = await setup();
    const json = join(other.dir, 'crm.json');
    writeFileSync(json, JSON.stringify(FOREIGN.slice(0, 2)));
    assert.equal((await runCli(['import', json], other.env)).code, 0);
    assert.deepEqual((await stored(other.db)).reviews.map((r) => r.id).sort(), csv.reviews.map((r) => r.id).sort());
  });

  it('refuses a bad foreign id, naming the record: empty, blank, too long, control characters, or two that disagree', async () => {
    const { dir, db, env } = await setup();
    const file = join(dir, 'bad.json');
    const base = FOREIGN[0]!;
    writeFileSync(file, JSON.stringify([
      { ...base, id: '' },
      { ...base, id: '   ' },
      { ...base, id: 'x'.repeat(256) },
      { ...base, id: 'crm\n1001' },
      { ...base, id: 'crm-1', source_id: 'crm-2' },
      { ...base, id: 'crm-1001' },
      { ...base, id: 'crm-1001', text: 'twice' },
    ]));
    const res = await runCli(['import', file], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /record 1 \(\[0\]\), field id: must not be empty/);
    assert.match(res.stderr, /record 2 \(\[1\]\), field id: must not be only spaces/);
    assert.match(res.stderr, /record 3 \(\[2\]\), field id: must be at most 255 characters/);
    assert.match(res.stderr, /record 4 \(\[3\]\), field id: must not contain control characters/);
    assert.match(res.stderr, /record 5 \(\[4\]\), field source_id: "crm-2" differs from the id "crm-1"/);
    assert.match(res.stderr, /record 7 \(\[6\]\), field id: duplicate id \w{26} \(source acme-crm, source_id crm-1001\) \(also in record 6/);
    assert.equal((await stored(db)).reviews.length, 0);
    const csv = join(dir, 'bad.csv');
    writeFileSync(csv, `id,author,rating,date,source\n${'y'.repeat(300)},Ivy,5,2026-03-01,acme-crm\n`);
    const c = await runCli(['import', csv], env);
    assert.equal(c.code, 1);
    assert.match(c.stderr, /record 1 \(CSV line 2\), field id: must be at most 255 characters/);
  });
});

/**
 * A database as an older version left it: the migrations before the first that mentions `marker`,
 * then REVIEWS[0] stored as `json` at revision 1.
 */
async function databaseBefore(db: string, marker: string, json: string): Promise<void> {
  const row = [REVIEWS[0]!.id, REVIEWS[0]!.date, REVIEWS[0]!.rating, json];
  if (TEST_STORE === 'sqlite') {
    const before = sqliteMigrations.findIndex((m) => m.includes(marker));
    const sqlite = new Database(db);
    for (const m of sqliteMigrations.slice(0, before)) sqlite.exec(m);
    sqlite.pragma(`user_version = ${before}`);
    sqlite.prepare('INSERT INTO reviews (id, date, rating, json) VALUES (?, ?, ?, ?)').run(...row);
    sqlite.prepare("UPDATE meta SET value = '1' WHERE key = 'revision'").run();
    sqlite.close();
  } else {
    const before = postgresMigrations.findIndex((m) => m.includes(marker));
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    for (const m of postgresMigrations.slice(0, before)) await client.query(m);
    await client.query('CREATE TABLE reviewcast_schema (version INTEGER NOT NULL)');
    await client.query('INSERT INTO reviewcast_schema (version) VALUES ($1)', [before]);
    await client.query('INSERT INTO reviews (id, date, rating, json) VALUES ($1, $2, $3, $4)', row);
    await client.query("UPDATE meta SET value = '1' WHERE key = 'revision'");
    await client.end();
  }
}

describe('a database from before source_id', () => {
  it('is upgraded in place: stored reviews gain source_id null, the revision moves once, and the same data re-imports unchanged', async () => {
    const { dir, db, env } = await setup();
    // As the previous version stored it: canonical field order, no source_id.
    const old = Object.fromEntries(Object.entries(canonicalReview(REVIEWS[0]!)).filter(([key]) => key !== 'source_id'));
    // The schema just before the migration that added source_id (later ones may follow it).
    await databaseBefore(db, '"source_id":null', JSON.stringify(old));
    const data = await stored(db);
    assert.deepEqual(data.reviews, [REVIEWS[0]]);
    assert.equal(data.revision.revision, 2);
    const file = join(dir, 'same.json');
    writeFileSync(file, JSON.stringify([REVIEWS[0]]));
    assert.match((await runCli(['import', file], env)).stdout, /0 added, 0 updated, 0 removed, 1 unchanged; revision 2 \(no change\)/);
  });
});

describe('a database from before modified_at', () => {
  it("is upgraded in place: its reviews keep their feeds' times, and an edit imported after records its own", async () => {
    const { dir, db, env } = await setup();
    // The schema just before the migration that added modified_at.
    await databaseBefore(db, 'modified_at', JSON.stringify(canonicalReview(REVIEWS[0]!)));
    const data = await stored(db);
    assert.deepEqual(data.reviews, [REVIEWS[0]]);
    assert.equal(data.revision.revision, 1, 'nothing served changes, so the revision stays');
    assert.equal(data.modified.size, 0);
    const file = join(dir, 'edited.json');
    writeFileSync(file, JSON.stringify([{ ...REVIEWS[0], text: 'Edited after the upgrade.' }]));
    const start = Date.now();
    assert.match((await runCli(['import', file], env)).stdout, /0 added, 1 updated, 0 removed/);
    const after = await stored(db);
    assert.ok(Date.parse(after.modified.get(REVIEWS[0]!.id)!) >= start - 1);
    assert.equal(after.modified.get(REVIEWS[0]!.id), after.revision.updated_at, "the edit's time is the import's");
  });
});

describe('reviewcast export', () => {
  it('writes the /reviews.json document without the derived url fields; it and /reviews.json re-import unchanged into another database', async () => {
    const { dir, env } = await setup();
    const file = join(dir, 'in.json');
    // One review with its source system's id, so source_id makes the round trip too.
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews: [...REVIEWS, { id: 'crm-7', author: 'Max', rating: 4, date: '2026-03-09', source: 'acme-crm' }] }));
    await runCli(['import', file], env);
    const out = join(dir, 'out.json');
    const exp = await runCli(['export', out], env);
    assert.equal(exp.code, 0, exp.stderr);
    const served = await startTestService({ database: env.DATABASE_URL });
    try {
      const body = await (await fetch(`${served.url}/reviews.json`)).text();
      // The permalink (url) is derived from BASE_URL, not stored, so the export leaves it out.
      const stored = body.replace(/,"url":"[^"]*"/g, '');
      assert.equal(readFileSync(out, 'utf8'), stored, 'export is /reviews.json without url, byte for byte');
      const servedFile = join(dir, 'served.json');
      writeFileSync(servedFile, body);
      const fromServed = await setup();
      const again = await runCli(['import', servedFile], fromServed.env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((await runCli(['export'], fromServed.env)).stdout, stored, 'a served /reviews.json imports as the stored reviews');
    } finally {
      await served.close();
    }
    const second = await setup();
    const imp = await runCli(['import', out], second.env);
    assert.equal(imp.code, 0, imp.stderr);
    const round = join(second.dir, 'round.json');
    await runCli(['export', round], second.env);
    assert.equal(readFileSync(round, 'utf8'), readFileSync(out, 'utf8'));
    const toStdout = await runCli(['export'], second.env);
    assert.equal(toStdout.stdout, readFileSync(out, 'utf8'));
    assert.match(readFileSync(out, 'utf8'), /"source_id":"crm-7"/);
    // Into the database it came from: nothing changes.
    assert.match((await runCli(['import', out], env)).stdout, /0 added, 0 updated, 0 removed, 9 unchanged; revision 1 \(no change\)/);
  });
});

describe('files larger than one string can hold', () => {
  // V8 strings end at about 512 MB (a million reviews' export). The reader is told a lower limit
  // here, so the streamed path runs on a small file and is compared with the whole-text one.
  // A path, or a file opened before (a pipe, a file removed since).
  const importOf = async (file: string | ImportFile, wholeTextBytes: number, format?: ImportFormat) => {
    const db = await freshDatabase();
    const store = await openTestStore(db);
    try {
      const opened = typeof file === 'string' ? await openImportFile(file) : file;
      const outcome = await runImport(store, { file: opened, format, wholeTextBytes, replace: false, dryRun: false, progress: false });
      return { summary: outcome.summary, data: await store.load() };
    } finally {
      await store.close();
    }
  };

  it('JSON past the limit is streamed: the same reviews and profile as read whole; bad JSON says how far it read', async () => {
    const dir = tempDir();
    const file = join(dir, 'in.json');
    const reviews = demoReviews(60);
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews }));
    const whole = await importOf(file, WHOLE_TEXT_BYTES);
    const streamed = await importOf(file, 100);
    assert.match(streamed.summary, /imported 60 records: 60 added/);
    assert.deepEqual(streamed.data.reviews, whole.data.reviews);
    assert.deepEqual(streamed.data.business, whole.data.business);
    // A pipe is read once, into memory, and streamed from there past the limit.
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('bash', ['-c', 'cat "$0" > "$1"', file, fifo]);
    const written = new Promise((resolve) => writer.on('close', resolve));
    const fromFifo = await openImportFile(fifo);
    await written;
    const piped = await importOf(fromFifo, 100);
    assert.match(piped.summary, /60 added/);
    assert.deepEqual(piped.data.reviews, whole.data.reviews);
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, JSON.stringify(reviews.slice(0, 3)));
    assert.equal((await importOf(bare, 10)).data.reviews.length, 3);
    // A byte order mark, as Windows tools write one, is skipped either way.
    const marked = join(dir, 'marked.json');
    writeFileSync(marked, `\ufeff${JSON.stringify(reviews.slice(0, 2))}`);
    assert.equal((await importOf(marked, WHOLE_TEXT_BYTES)).data.reviews.length, 2);
    assert.equal((await importOf(marked, 10)).data.reviews.length, 2);
    for (const [text, message] of [
      ['{"reviews": [{"author": "A",, }]}', /^not valid JSON: .+ \(within the first 33 bytes\)$/],
      ['[] []', /^not valid JSON: more than one value in the file$/],
      // Refused as empty before any reader: only white space is nothing to import.
      ['   ', /^\S+bad\.json is empty \(only white space\)/],
      ['{"reviews": {}}', /expected a JSON array of reviews or an object with a "reviews" array/],
    ] as const) {
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, text);
      await assert.rejects(importOf(bad, 1), (err: Error) => err instanceof ImportFileError && message.test(err.message), text);
    }
    // In a large file the place is near the fault, not the file's end.
    const long = join(dir, 'long.json');
    const text = JSON.stringify({ business: BUSINESS, reviews });
    const fault = text.indexOf('"reviews"') + 5000;
    writeFileSync(long, `${text.slice(0, fault)}\u0001${text.slice(fault)}`.repeat(4));
    const read = await importOf(long, 1).then(() => 0, (err: Error) => Number(/within the first ([\d,]+) bytes/.exec(err.message)?.[1]?.replaceAll(',', '')));
    assert.ok(read > fault && read < statSync(long).size, `read ${read}, fault at ${fault}, of ${statSync(long).size}`);
  });

  it('a Google Business Profile file past the limit is refused with what to do; a file gone before it is read is a read error', async () => {
    const dir = tempDir();
    const file = join(dir, 'gbp.json');
    writeFileSync(file, JSON.stringify(GBP));
    await assert.rejects(importOf(file, 100, 'gbp'), /a Google Business Profile file is read whole, and this one \(\d+ bytes\) is larger than 100 bytes; split it into smaller files \(a reviews\.list page holds at most 50 reviews\) or convert it to our JSON or CSV/);
    assert.match((await importOf(file, WHOLE_TEXT_BYTES, 'gbp')).summary, /2 added/);
    const csv = join(dir, 'gone.csv');
    writeFileSync(csv, CSV);
    const opened = await openImportFile(csv);
    rmSync(csv);
    await assert.rejects(importOf(opened, WHOLE_TEXT_BYTES), (err: Error) => err instanceof FileAccessError && err.message === `cannot read ${csv}: no such file`);
  });

  it('a pipe (/dev/stdin) is read once, whole: its format is guessed from its content, JSON and CSV import, bad JSON is refused', async () => {
    const dir = tempDir();
    // Through a shell's pipe, as an operator would: `cat file | reviewcast import /dev/stdin`.
    const piped = (content: string, args: string[], env: Record<string, string>) => {
      const file = join(dir, 'piped');
      writeFileSync(file, content);
      return pipedCli(file, ['import', ...args], env);
    };
    const gbp = piped(JSON.stringify(GBP), ['--dry-run', '/dev/stdin'], (await setup()).env);
    assert.equal(gbp.status, 0, gbp.stderr);
    assert.match(gbp.stdout, /would be 2 added/);
    const csv = piped(CSV, ['--format', 'csv', '/dev/stdin'], (await setup()).env);
    assert.equal(csv.status, 0, csv.stderr);
    assert.match(csv.stdout, /imported 2 records: 2 added/);
    const env = (await setup()).env;
    const json = piped(JSON.stringify({ business: BUSINESS, reviews: REVIEWS }), ['/dev/stdin'], env);
    assert.equal(json.status, 0, json.stderr);
    assert.match(json.stdout, new RegExp(`imported ${REVIEWS.length} records`));
    const bad = piped('{"reviews": [', ['/dev/stdin'], env);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /not valid JSON/);
  });

  it('the export is written in pieces whose text is JSON.stringify of the dataset', () => {
    const reviews = demoReviews(2500);
    for (const n of [0, 1, 1000, 2500]) {
      const list = reviews.slice(0, n);
      assert.equal([...datasetJson(BUSINESS, list)].join(''), JSON.stringify(reviewsDataset(BUSINESS, list)), `${n} reviews`);
    }
  });
});

describe('a running server', () => {
  it('picks up an import made by another process within 2 seconds, without a restart', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2) });
    try {
      const before = await fetch(`${svc.url}/reviews.json`);
      const etag = before.headers.get('etag')!;
      const file = join(tempDir(), 'more.json');
      writeFileSync(file, JSON.stringify(REVIEWS));
      const res = await runCli(['import', file], { DATABASE_URL: svc.database });
      assert.equal(res.code, 0, res.stderr);
      const started = Date.now();
      const seen = await servesReviews(svc.url, 8, 2000);
      assert.ok(seen, `not seen within 2 s (waited ${Date.now() - started} ms)`);
      const after = await fetch(`${svc.url}/reviews.json`, { headers: { 'if-none-match': etag } });
      assert.equal(after.status, 200);
    } finally {
      await svc.close();
    }
  });
  it('hears of another process\'s import from the store, not only by polling', async () => {
    // Polling is as good as off: only the store's signal (SQLite: a file watch; PostgreSQL: NOTIFY) can bring the change.
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), revisionPollMs: 3_600_000 });
    try {
      const file = join(tempDir(), 'more.json');
      writeFileSync(file, JSON.stringify(REVIEWS));
      const res = await runCli(['import', file], { DATABASE_URL: svc.database });
      assert.equal(res.code, 0, res.stderr);
      const seen = await servesReviews(svc.url, 8, 10_000);
      assert.ok(seen, 'the import was never served');
    } finally {
      await svc.close();
    }
  });
  it('hears of a change committed while its PostgreSQL listener was down, once it reconnects', { skip: TEST_STORE !== 'postgres' && 'PostgreSQL only (LISTEN/NOTIFY)' }, async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 2), revisionPollMs: 3_600_000 });
    const admin = new pg.Client({ connectionString: svc.database });
    await admin.connect();
    try {
      const listeners = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'";
      assert.ok(await eventually(async () => (await admin.query(listeners)).rowCount === 1, 5000), 'the service listens');
      await admin.query(`SELECT pg_terminate_backend(pid) FROM (${listeners}) l`);
      assert.ok(await eventually(async () => (await admin.query(listeners)).rowCount === 0, 5000), 'the listener is gone');
      // Its NOTIFY reaches nobody: only the reconnect can bring the change (polling is as good as off).
      await svc.store.importReviews({ reviews: REVIEWS, replace: false, dryRun: false });
      assert.equal((await admin.query(listeners)).rowCount, 0, 'the change was committed while nobody listened');
      const seen = await servesReviews(svc.url, 8, 10_000);
      assert.ok(seen, 'the change was not served after the listener came back');
    } finally {
      await admin.end();
      await svc.close();
    }
  });
});

describe('configuration', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT: must be a whole number/],
    [{ PORT: '70000' }, /PORT: must be between 0 and 65535/],
    [{ BASE_URL: 'not a url' }, /BASE_URL: not a URL/],
    [{ BASE_URL: 'ftp://x.example' }, /BASE_URL: must be an http or https URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL: must be one of/],
    // Every kind of value it takes is named, PostgreSQL's URLs too.
    [{ DATABASE_URL: 'mysql://db/x' }, /DATABASE_URL: unsupported scheme in "mysql:\/\/db\/x"; use a file path, a sqlite: URL or a postgres:\/\/ \(or postgresql:\/\/\) URL\n/],
  ];
  for (const [env, message] of cases) {
    it(`serve refuses ${JSON.stringify(env)} with one line and exit code 2`, async () => {
      const res = await runCli(['serve'], { DATABASE_URL: join(tempDir(), 'x.db'), ...env });
      assert.equal(res.code, 2);
      assert.match(res.stderr, message);
      assert.equal(res.stderr.trim().split('\n').length, 1);
    });
  }
  it('serve on a port already in use says so in one line, naming PORT, with exit code 4', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (holder.address() as AddressInfo).port;
      const res = await runCli(['serve'], { DATABASE_URL: join(tempDir(), 'x.db'), HOST: '127.0.0.1', PORT: String(port) });
      assert.equal(res.code, 4);
      // Log lines (the demo seeding) may come first; the failure itself is one line, with no stack.
      const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('{'));
      assert.equal(lines.length, 1, res.stderr);
      assert.match(lines[0]!, new RegExp(`^reviewcast: cannot listen: 127\\.0\\.0\\.1 port ${port} is already in use; .*set PORT`));
    } finally {
      holder.close();
    }
  });
  it('an unknown command is a usage error', async () => {
    const res = await runCli(['frobnicate']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /unknown command "frobnicate"/);
  });
});

describe('npm start', () => {
  it('stops the service when npm itself is sent SIGTERM (the script execs node: no shell left between them)', async () => {
    // npm start runs the build first; its pre-script is skipped here, so the build in dist/ must exist (npm install makes it).
    assert.ok(existsSync(join(ROOT, 'dist/cli/main.js')), 'dist/ is missing: run npm run build');
    const port = await freePort();
    const npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: join(tempDir(), 'start.db'), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
      // Its own process group, so the cleanup below reaches a node it may have left behind.
      detached: true,
    });
    const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
    const health = `http://127.0.0.1:${port}/healthz`;
    try {
      assert.ok(await eventually(async () => (await fetch(health).catch(() => null))?.ok === true, 30_000), 'npm start never served');
      npm.kill('SIGTERM');
      assert.equal(await exited, 0);
      // Nothing may still answer: before, the shell died and node went on serving with no parent.
      assert.equal(await fetch(health).then(() => 'answered', () => 'refused'), 'refused');
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // The group is empty: everything stopped as it should.
      }
    }
  });
});
