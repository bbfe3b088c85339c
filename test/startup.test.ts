// Start-up without recomputation: a revision's insights are kept in the store, so a restart serves them without analysing a review.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { buildInsights } from '../src/core/insights/build.js';
import { buildReviewIndex, searchReviews } from '../src/core/search.js';
import { holdInsights, insightsJson, keptInsights, readKeptInsights } from '../src/snapshot/insights-bytes.js';
import { analyseAndKeep, INSIGHTS_KEPT, keptName } from '../src/snapshot/snapshot.js';
import { AnalysisCache } from '../src/core/insights/per-review.js';
import { request } from 'undici';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { buildDigest } from '../src/snapshot/build-digest.js';
import { gunzipWhole } from '../src/snapshot/compressor.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { benchReviews } from '../bench/lib/dataset.js';
import { ROOT, TEST_STORE, builtCli, eventually, freshDatabase, openTestStore, runCli, startTestService, tempDir, type TestService } from './helpers.js';

/** The CLI from source: these tests read what it kept with this process's build (runCli). */
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, env, undefined, 'source');

/** util-linux's script(1), which gives a command a pseudo-terminal (BusyBox's lacks -e). */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p) && spawnSync(p, ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux'));

async function analysed(svc: TestService): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  const m = /^reviewcast_insights_analysed_reviews_total (\d+)$/m.exec(text);
  assert.ok(m, 'the counter is in /metrics');
  return Number(m[1]);
}

async function insights(svc: TestService): Promise<{ etag: string | null; body: string }> {
  const res = await fetch(`${svc.url}/insights.json`);
  assert.equal(res.status, 200);
  return { etag: res.headers.get('etag'), body: await res.text() };
}

describe('insights kept per revision in the store', () => {
  it('a restart on an unchanged revision serves /insights.json without running the analyser', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS });
    let before: { etag: string | null; body: string };
    try {
      before = await insights(first);
      assert.equal(await analysed(first), REVIEWS.length, 'the first start analyses every review');
    } finally {
      await first.close();
    }
    // Its brotli form kept at another quality: the same content, other bytes, so serving them shows they were read.
    const store = await openTestStore(database);
    const { revision } = await store.getRevision();
    const br = brotliCompressSync(before.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    await store.saveKept(revision, keptName('/insights.json br'), br);
    await store.close();
    const second = await startTestService({ database });
    try {
      assert.equal(await analysed(second), 0, 'the restart analyses none');
      assert.deepEqual(await insights(second), before, 'the same bytes and ETag');
      const coded = await request(`${second.url}/insights.json`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(coded.headers['content-encoding'], 'br');
      assert.deepEqual(Buffer.from(await coded.body.arrayBuffer()), br, 'the kept brotli form is served');
      assert.equal(await analysed(second), 0, 'nor on first use');
    } finally {
      await second.close();
    }
  });

  it('an import analyses its revision: the service\'s first start after it serves the same /insights.json without running the analyser', async () => {
    // What a service that analysed the reviews itself serves.
    const reference = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    let expected: string;
    try {
      expected = (await insights(reference)).body;
      assert.equal(await analysed(reference), REVIEWS.length);
    } finally {
      await reference.close();
    }
    const database = await freshDatabase();
    const file = join(tempDir(), 'reviews.json');
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews: REVIEWS }));
    const imported = await cli(['import', file], { DATABASE_URL: database });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stderr, '', 'nothing to warn of');
    const svc = await startTestService({ database });
    try {
      assert.equal(await analysed(svc), 0, 'the first start analyses none');
      // The same document as the service would have made, but for when each database's revision was made.
      const withoutDate = (body: string) => ({ ...(JSON.parse(body) as object), generated_at: null });
      assert.deepEqual(withoutDate((await insights(svc)).body), withoutDate(expected));
    } finally {
      await svc.close();
    }
  });

  it('an import given BASE_URL makes the documents that name it: the first start reads them, and serves what a service would have made', async () => {
    const BASE = 'https://reviews.example.test';
    // Entry ids name the installation's tagging entity, whose date is the day each database chose
    // it, and the feed's first <updated> is when each database's revision was made.
    const untagged = (xml: string) => xml.replace(/tag:reviews\.example\.test,\d{4}-\d{2}-\d{2}:/g, 'tag:<entity>:').replace(/<updated>[^<]*<\/updated>/, '<updated/>');
    const reference = await startTestService({ business: BUSINESS, reviews: REVIEWS, baseUrl: BASE });
    let expected: { etag: string | null; body: string };
    let expectedFeed: string;
    try {
      const res = await fetch(`${reference.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
      expected = { etag: res.headers.get('etag'), body: await res.text() };
      expectedFeed = untagged(await (await fetch(`${reference.url}/feed.xml`)).text());
    } finally {
      await reference.close();
    }
    const database = await freshDatabase();
    const file = join(tempDir(), 'reviews.json');
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews: REVIEWS }));
    const imported = await cli(['import', file], { DATABASE_URL: database, BASE_URL: `${BASE}/` });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stderr, '', 'nothing to warn of');
    const store = await openTestStore(database);
    let reviewsGzip: Buffer;
    let feedBr: Buffer;
    try {
      const { revision } = await store.getRevision();
      const keptGzip = await store.loadKept(revision, keptName('/reviews.json gzip', BASE));
      assert.ok(keptGzip, 'the published reviews are kept for BASE_URL, without its trailing slash');
      assert.equal(gunzipSync(keptGzip).toString(), expected.body, 'the bytes a service makes');
      const tag = await store.getOrCreateSetting('feed_tag_entity', () => 'not made here');
      assert.match(tag, /^reviews\.example\.test,\d{4}-\d{2}-\d{2}$/, 'the import chose the tagging entity from BASE_URL');
      const feedName = keptName(`/feed.xml br ${tag}`, BASE);
      const keptFeed = await store.loadKept(revision, feedName);
      assert.ok(keptFeed, 'the feed\'s brotli form is kept');
      assert.equal(untagged(brotliDecompressSync(keptFeed).toString()), expectedFeed, 'the feed a service makes');
      // Kept again at another level and quality: the same content, other bytes, so serving them shows the start read them.
      feedBr = brotliCompressSync(brotliDecompressSync(keptFeed), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
      assert.ok(!feedBr.equals(keptFeed));
      await store.saveKept(revision, feedName, feedBr);
      reviewsGzip = gzipSync(Buffer.from(expected.body), { level: 1 });
      assert.ok(!reviewsGzip.equals(keptGzip));
      await store.saveKept(revision, keptName('/reviews.json gzip', BASE), reviewsGzip);
    } finally {
      await store.close();
    }
    const svc = await startTestService({ database, baseUrl: BASE });
    try {
      assert.equal(await analysed(svc), 0, 'the first start analyses none');
      const res = await fetch(`${svc.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
      assert.deepEqual({ etag: res.headers.get('etag'), body: await res.text() }, expected, 'the same bytes and ETag as the service made');
      const gzip = await request(`${svc.url}/reviews.json`, { headers: { 'accept-encoding': 'gzip' } });
      assert.deepEqual(Buffer.from(await gzip.body.arrayBuffer()), reviewsGzip, 'the gzip coding the import kept is served');
      const feed = await request(`${svc.url}/feed.xml`, { headers: { 'accept-encoding': 'br' } });
      assert.deepEqual(Buffer.from(await feed.body.arrayBuffer()), feedBr, 'the feed\'s brotli coding the import kept is served');
    } finally {
      await svc.close();
    }
  });

  it('on a terminal an import shows each long step: bars for validating, writing and analysing, and the documents\' steps by name', { skip: TEST_STORE === 'postgres' ? 'what a terminal shows does not depend on the store' : SCRIPT ? false : 'no util-linux script(1) here to give the CLI a terminal' }, () => {
    const file = join(tempDir(), 'reviews.json');
    writeFileSync(file, JSON.stringify({ reviews: benchReviews(2500) }));
    // script(1) runs the CLI on a pseudo-terminal, as an operator's shell would; stdout and stderr both reach it.
    const env: Record<string, string | undefined> = { ...process.env, NODE: process.execPath, CLI: builtCli(), FILE: file, DATABASE_URL: join(tempDir(), 'tty.db'), BASE_URL: 'https://reviews.example.test', LOG_LEVEL: 'warn' };
    delete env.CI;
    const run = spawnSync(SCRIPT!, ['-qec', '"$NODE" "$CLI" import "$FILE"', '/dev/null'], { cwd: ROOT, env, encoding: 'utf8', timeout: 300_000 });
    assert.equal(run.status, 0, `${run.error?.message ?? ''}\n${run.stdout}`);
    // Each redraw starts again at the line's first column (ESC[1G); the frames, escapes removed.
    const frames = run.stdout.split('\u001b[1G').flatMap((f) => stripVTControlCharacters(f).split(/\r|\n/)).map((f) => f.trim());
    for (const label of ['validating', 'writing   ', 'analysing ']) assert.ok(frames.some((f) => f.startsWith(label) && f.endsWith('100% 2500/2500')), `${label}: ${JSON.stringify(frames)}`);
    assert.ok(frames.includes('imported 2500 records: 2500 added, 0 updated, 0 removed, 0 unchanged; revision 0 -> 1'), JSON.stringify(frames));
    const documents = frames.filter((f) => f.startsWith('documents '));
    assert.match(documents.at(-1)!, /\] 6\/6 done$/);
    // Redraws are throttled (a frame every 100 ms at most), so not every step is drawn; the first is.
    assert.match(documents[0]!, /\] 0\/6 done, now search index$/);
    for (const f of documents.slice(0, -1)) assert.match(f, /\] [0-5]\/6 done(, now (search index|published reviews|\/api\/feed\.json compressed|\/feed\.xml compressed|\/reviews\.json compressed|\/insights\.json compressed))?$/);
  });

  it('an import refuses a BASE_URL the service would refuse, before it reads the file or opens the store', async () => {
    const database = join(tempDir(), 'never.db');
    const imported = await runCli(['import', join(tempDir(), 'missing.json')], { DATABASE_URL: database, BASE_URL: 'ftp://reviews.example.test' });
    assert.equal(imported.code, 2);
    assert.match(imported.stderr, /BASE_URL.*must be an http or https URL/);
    assert.equal(existsSync(database), false, 'no database file made');
  });

  it('reviewcast prepare makes what a build serves for data nothing prepared (as after an upgrade): the next start analyses none', async () => {
    const BASE = 'https://reviews.example.test';
    const database = await freshDatabase();
    // Written through the store alone, as an older build's import left it for this build: nothing kept.
    const store = await openTestStore(database);
    try {
      await store.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
      const { revision } = await store.getRevision();
      assert.equal(await store.hasKept(revision, INSIGHTS_KEPT), false);
    } finally {
      await store.close();
    }
    const env = { DATABASE_URL: database, BASE_URL: BASE };
    const first = await cli(['prepare'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`^revision \\d+ \\(${REVIEWS.length} reviews\\): insights analysed and kept; documents for ${BASE} kept\\n$`));
    const again = await cli(['prepare'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /: insights kept already; documents for https:\/\/reviews\.example\.test kept\n$/, 'a second run reads what the first kept');
    const kept = await openTestStore(database);
    try {
      const { revision } = await kept.getRevision();
      assert.ok(await kept.loadKept(revision, keptName('/reviews.json gzip', BASE)), 'the published reviews are kept for BASE_URL');
    } finally {
      await kept.close();
    }
    const svc = await startTestService({ database, baseUrl: BASE });
    try {
      assert.equal(await analysed(svc), 0, 'the first start analyses none');
      assert.equal((await insights(svc)).body.length > 0, true);
      assert.equal(await analysed(svc), 0, 'nor on first use');
    } finally {
      await svc.close();
    }
  });

  it('reviewcast prepare without BASE_URL makes the insights only and names no origin; on an empty database it does nothing', async () => {
    const database = join(tempDir(), 'prepare.db');
    const store = await openTestStore(database);
    try {
      const empty = await runCli(['prepare'], { DATABASE_URL: database });
      assert.equal(empty.code, 0, empty.stderr);
      assert.equal(empty.stdout, 'nothing to prepare: the database is empty (the service seeds its demo on its first start and analyses it then)\n');
      await store.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
      const { revision } = await store.getRevision();
      const prepared = await cli(['prepare'], { DATABASE_URL: database });
      assert.equal(prepared.code, 0, prepared.stderr);
      assert.match(prepared.stdout, /: insights analysed and kept; no documents: BASE_URL is not set \(the service makes them when it starts\)\n$/);
      assert.equal(await store.hasKept(revision, INSIGHTS_KEPT), true);
      assert.equal(await store.getOrCreateSetting('feed_tag_entity', () => 'none chosen'), 'none chosen', 'no origin chosen for the feed entries');
    } finally {
      await store.close();
    }
  });

  it('reviewcast prepare refuses arguments, a BASE_URL the service would refuse, a database file that is not there, and a store it cannot open or read', async () => {
    const database = join(tempDir(), 'never.db');
    const extra = await runCli(['prepare', 'reviews.json'], { DATABASE_URL: database });
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /prepare takes no arguments/);
    const badBase = await runCli(['prepare'], { DATABASE_URL: database, BASE_URL: 'ftp://reviews.example.test' });
    assert.equal(badBase.code, 2);
    assert.match(badBase.stderr, /BASE_URL.*must be an http or https URL/);
    assert.equal(existsSync(database), false, 'no database file made');
    const missing = await runCli(['prepare'], { DATABASE_URL: database });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `reviewcast prepare: no database at ${database}: nothing to prepare (DATABASE_URL as the service has it)\n`);
    assert.equal(existsSync(database), false, 'no database file made');
    const folder = tempDir();
    const unopenable = await runCli(['prepare'], { DATABASE_URL: folder });
    assert.equal(unopenable.code, 3, unopenable.stderr);
    // A sound header over pages that are not: found by the first read, as serve finds it.
    const corrupt = join(tempDir(), 'corrupt.db');
    const store = await openTestStore(corrupt);
    await store.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
    await store.close();
    const bytes = readFileSync(corrupt);
    bytes.fill(0xa5, 4096);
    writeFileSync(corrupt, bytes);
    const unreadable = await runCli(['prepare'], { DATABASE_URL: corrupt });
    assert.equal(unreadable.code, 3, unreadable.stderr);
    assert.match(unreadable.stderr, /^reviewcast: cannot open the store at DATABASE_URL=.*corrupt\.db: /);
  });

  it('an import while a service runs over the same store: the service serves the new revision, and a restart serves the same bytes without analysing', async () => {
    const BASE = 'https://reviews.example.test';
    const reviews = benchReviews(3000);
    const database = await freshDatabase();
    const svc = await startTestService({ database, business: BUSINESS, reviews: reviews.slice(0, 1000), baseUrl: BASE });
    let served: { etag: string | null; body: string };
    let feed: string;
    try {
      assert.equal(JSON.parse((await insights(svc)).body).review_count, 1000);
      const file = join(tempDir(), 'reviews.json');
      writeFileSync(file, JSON.stringify({ reviews: reviews.slice(1000) }));
      // The service sees the data change while the import is still analysing it (polled every 100 ms
      // here) and analyses it too: two writers of the revision's kept entries at once.
      const imported = await cli(['import', file], { DATABASE_URL: database, BASE_URL: BASE });
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(imported.stderr, '', 'nothing to warn of: what the import made was kept, or found kept already');
      assert.ok(await eventually(async () => JSON.parse((await insights(svc)).body).review_count === 3000, 30_000), 'the service serves the new revision');
      served = await insights(svc);
      feed = await (await fetch(`${svc.url}/feed.xml`)).text();
    } finally {
      await svc.close();
    }
    const again = await startTestService({ database, baseUrl: BASE });
    try {
      assert.equal(await analysed(again), 0, 'the restart analyses none');
      assert.deepEqual(await insights(again), served, 'the same bytes and ETag as the running service served');
      assert.equal(await (await fetch(`${again.url}/feed.xml`)).text(), feed);
    } finally {
      await again.close();
    }
  });

  it('an analysis told to stop (another process kept the insights first) stops between chunks and keeps nothing', async () => {
    const store = await openTestStore(await freshDatabase());
    try {
      const reviews = benchReviews(5001);
      const revision = { revision: 7, updated_at: '2026-11-26T00:00:00Z' };
      let asked = 0;
      let reached = 0;
      const made = await analyseAndKeep(store, { business: BUSINESS, reviews, revision }, new AnalysisCache(), {
        onProgress: (n) => (reached = n),
        stopIf: async () => ++asked > 0,
      });
      assert.equal(made, null);
      assert.equal(asked, 1, 'asked once, after the first few thousand reviews');
      assert.ok(reached < reviews.length, `stopped after ${reached} of ${reviews.length}`);
      assert.equal(await store.hasKept(7, INSIGHTS_KEPT), false, 'nothing kept');
    } finally {
      await store.close();
    }
  });
  it('a new revision is analysed and kept; only the newest entry stays', async () => {
    const database = await freshDatabase();
    const svc = await startTestService({ database, business: BUSINESS, reviews: REVIEWS });
    let revision: number;
    try {
      const old = (await svc.store.getRevision()).revision;
      assert.notEqual(await svc.store.loadKept(old, INSIGHTS_KEPT), null);
      const changed = { ...REVIEWS[0]!, text: 'Al was rude and late.', rating: 1 };
      await svc.store.importReviews({ reviews: [changed], replace: false, dryRun: false });
      revision = (await svc.store.getRevision()).revision;
      assert.ok(await eventually(async () => svc.server.live.current().revision.revision === revision, 10_000));
      assert.equal(await analysed(svc), REVIEWS.length + 1, 'only the changed review is analysed again');
      const doc = JSON.parse((await insights(svc)).body) as { per_review: Record<string, { sentiment: string }> };
      assert.equal(doc.per_review[changed.id]!.sentiment, 'negative');
      assert.equal(await svc.store.loadKept(old, INSIGHTS_KEPT), null, 'the older revision entry is gone');
    } finally {
      await svc.close();
    }
    const again = await startTestService({ database });
    try {
      assert.equal(again.server.live.current().revision.revision, revision);
      assert.equal(await analysed(again), 0);
      const doc = JSON.parse((await insights(again)).body) as { per_review: Record<string, { sentiment: string }> };
      assert.equal(doc.per_review[REVIEWS[0]!.id]!.sentiment, 'negative');
    } finally {
      await again.close();
    }
  });

  it('a document kept by another build is not used', async () => {
    const database = await freshDatabase();
    const first = await openTestStore(database);
    await first.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
    const { revision } = await first.getRevision();
    // As if an older release had served this revision: its document is kept under its own build's name.
    await first.saveKept(revision, '/insights.json:another-build:', Buffer.from('not what this build made'));
    await first.close();
    const second = await startTestService({ database });
    try {
      assert.equal(await analysed(second), REVIEWS.length);
      assert.equal(JSON.parse((await insights(second)).body).review_count, REVIEWS.length);
      assert.notEqual(await second.store.loadKept(revision, INSIGHTS_KEPT), null, 'and this analyser keeps its own');
    } finally {
      await second.close();
    }
  });

  it('the key of what a revision keeps changes with the code that makes it, and only with it', () => {
    const root = mkdtempSync(join(tmpdir(), 'rc-digest-'));
    mkdirSync(join(root, 'core/insights'), { recursive: true });
    mkdirSync(join(root, 'http'));
    writeFileSync(join(root, 'core/insights/faq.js'), 'export const wording = "praised in";');
    const folders = [pathToFileURL(join(root, 'core/'))];
    const first = buildDigest(folders, '1.0.0');
    assert.equal(buildDigest(folders, '1.0.0'), first, 'the same code, the same key');
    writeFileSync(join(root, 'core/insights/faq.js.map'), '{}');
    writeFileSync(join(root, 'http/routes.js'), 'export {};');
    assert.equal(buildDigest(folders, '1.0.0'), first, 'source maps and other layers do not count');
    writeFileSync(join(root, 'core/insights/faq.js'), 'export const wording = "mentioned in";');
    assert.notEqual(buildDigest(folders, '1.0.0'), first, 'a changed wording is a new key, the version unchanged');
    writeFileSync(join(root, 'core/insights/faq.js'), 'export const wording = "praised in";');
    assert.notEqual(buildDigest(folders, '1.0.1'), first, 'another release is a new key');
    renameSync(join(root, 'core/insights/faq.js'), join(root, 'core/insights/faq2.js'));
    assert.notEqual(buildDigest(folders, '1.0.0'), first, 'a renamed file is a new key');
  });

  it('an older revision does not replace a newer one kept by another replica', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    try {
      await svc.store.saveKept(1000, INSIGHTS_KEPT, Buffer.from('newer'));
      await svc.store.saveKept(999, INSIGHTS_KEPT, Buffer.from('older'));
      assert.deepEqual(await svc.store.loadKept(1000, INSIGHTS_KEPT), Buffer.from('newer'));
      assert.equal(await svc.store.loadKept(999, INSIGHTS_KEPT), null);
    } finally {
      await svc.close();
    }
  });
});

describe('loading a revision', () => {
  it('the store loads every review newest first, however many, in batches with the event loop free between them', async () => {
    const reviews = benchReviews(12_345);
    const store = await openTestStore(await freshDatabase());
    try {
      await store.importReviews({ reviews, replace: false, dryRun: false });
      // The event loop turns while a load reads: the previous revision is still being served.
      let turns = 0;
      let spinning = true;
      const spin = () => {
        if (!spinning) return;
        turns++;
        setImmediate(spin);
      };
      setImmediate(spin);
      const [{ reviews: loaded }, again] = await Promise.all([store.load(), store.load()]);
      spinning = false;
      assert.ok(turns >= 2, `the event loop turned ${turns} times during two loads`);
      assert.equal(again.reviews.length, reviews.length, 'loads at once take turns');
      assert.equal(loaded.length, reviews.length);
      const order = (r: { date: string; id: string }) => `${r.date} ${r.id}`;
      assert.deepEqual(loaded.map(order), reviews.map(order).sort().reverse());
      const byId = new Map(reviews.map((r) => [r.id, r]));
      assert.deepEqual(loaded[12_000], byId.get(loaded[12_000]!.id), 'a review of the last batch, whole');
    } finally {
      await store.close();
    }
  });
});

describe('what a snapshot prepares is what it would build on first use', () => {
  it('the insights JSON made in chunks is JSON.stringify of the document, byte for byte', async () => {
    const many = Array.from({ length: 4500 }, (_, i) => ({ ...REVIEWS[i % REVIEWS.length]!, id: `01K${String(i).padStart(23, '0')}` }));
    const doc = buildInsights(BUSINESS, many, '2026-01-01T00:00:00.000Z');
    assert.ok((await insightsJson(doc, () => yieldToLoop())).equals(Buffer.from(JSON.stringify(doc))));
  });

  it('a kept gzip body is decompressed into one buffer of its size, and no second one', async () => {
    const body = Buffer.alloc(24 * 1048576, '{"review":1},');
    const gz = gzipSync(body, { level: 1 });
    globalThis.gc?.();
    const before = process.memoryUsage().arrayBuffers;
    const out = await gunzipWhole(gz);
    const grew = process.memoryUsage().arrayBuffers - before;
    assert.ok(out.equals(body));
    // zlib starts a new output chunk of the same size as soon as one is exactly full: 48 MiB here.
    assert.ok(grew < 1.5 * body.length, `${grew} bytes of buffers for a ${body.length}-byte body`);
  });

  it('a review\'s analysis made again on demand is its entry in the document; identity streamed from the held gzip is the document', async () => {
    const database = await freshDatabase();
    const reviews = [...REVIEWS, { ...REVIEWS[0]!, id: 'rating-only', text: null, rating: 2 }];
    const svc = await startTestService({ database, business: BUSINESS, reviews });
    try {
      const snap = svc.server.live.current();
      const res = await request(`${svc.url}/insights.json`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(res.headers['content-encoding'], undefined);
      const body = await res.body.text();
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(body), 'Content-Length is the streamed identity\'s');
      const doc = JSON.parse(body) as { per_review: Record<string, unknown> };
      assert.equal(body, JSON.stringify(buildInsights(snap.business, snap.index.reviews, snap.revision.updated_at)), 'the document, byte for byte');
      assert.equal(Object.keys(doc.per_review).length, reviews.length);
      for (const r of reviews) assert.deepEqual(snap.analysisOf(r.id), doc.per_review[r.id], r.id);
      assert.equal(snap.analysisOf('no-such-review'), undefined);
      const gzip = await request(`${svc.url}/insights.json`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gunzipSync(Buffer.from(await gzip.body.arrayBuffer())).toString('utf8'), body, 'the gzip coding holds the same document');
      assert.equal(gzip.headers.etag, `${res.headers.etag!.slice(0, -1)}-gzip"`, 'one tag, the coding\'s suffix');
      const br = await request(`${svc.url}/insights.json`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(Buffer.from(await br.body.arrayBuffer())).toString('utf8'), body, 'the brotli coding, made from the gzip bytes streamed');
      // Through fastify (a query string leaves the fast path) as well as the fast path: GET's length, no body.
      for (const path of ['/insights.json', '/insights.json?via=fastify']) {
        const head = await request(`${svc.url}${path}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
        assert.equal(Number(head.headers['content-length']), Buffer.byteLength(body), path);
        assert.equal((await head.body.arrayBuffer()).byteLength, 0, path);
        const get = await request(`${svc.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
        assert.equal(await get.body.text(), body, path);
      }
    } finally {
      await svc.close();
    }
  });

  it('kept insights that are not whole are not used: the revision is analysed again', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS });
    let body: string;
    let revision: number;
    try {
      body = (await insights(first)).body;
      revision = first.server.live.current().revision.revision;
    } finally {
      await first.close();
    }
    const store = await openTestStore(database);
    try {
      const kept = (await store.loadKept(revision, INSIGHTS_KEPT))!;
      await store.saveKept(revision, INSIGHTS_KEPT, kept.subarray(0, kept.length - 100));
    } finally {
      await store.close();
    }
    const again = await startTestService({ database });
    try {
      assert.equal(await analysed(again), REVIEWS.length, 'analysed again');
      assert.equal((await insights(again)).body, body);
      const res = await request(`${again.url}/insights.json`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'), body, 'a whole gzip coding');
    } finally {
      await again.close();
    }
  });

  it('kept insights read back as they were made, and not when cut, foreign or of another number of reviews', async () => {
    const doc = buildInsights(BUSINESS, REVIEWS, '2026-01-01T00:00:00.000Z');
    const held = await holdInsights(doc, () => yieldToLoop());
    const kept = keptInsights(held);
    const read = readKeptInsights(kept, REVIEWS.length);
    assert.ok(read);
    assert.deepEqual({ ...read, hits: undefined }, { ...held, hits: undefined });
    REVIEWS.forEach((r, i) => assert.deepEqual(read.hits.at(i), doc.per_review[r.id]!.aspects.map(({ aspect, polarity }) => ({ aspect, polarity })), r.id));
    assert.equal(readKeptInsights(kept.subarray(0, kept.length - 1), REVIEWS.length), null, 'cut');
    assert.equal(readKeptInsights(kept, REVIEWS.length + 1), null, 'another number of reviews');
    assert.equal(readKeptInsights(Buffer.concat([kept.subarray(0, kept.length - held.gzip.length), gzipSync('{}')]), REVIEWS.length), null, 'another body');
    assert.equal(readKeptInsights(Buffer.from('not kept insights'), REVIEWS.length), null, 'not kept insights');
  });

  it('prepared technician and service filters find what filters built on first use find', async () => {
    const prepared = buildReviewIndex(BUSINESS, REVIEWS, 'x');
    await prepared.prepare(() => yieldToLoop(), null, 3);
    const lazy = buildReviewIndex(BUSINESS, REVIEWS, 'x');
    for (const q of [{ mentions_technician: 'Al' }, { mentions_technician: 'beatrice' }, { mentions_service: 'ac_repair' }, { mentions_service: 'drain' }, { mentions_technician: 'Zed' }]) {
      const ids = (index: typeof lazy) => searchReviews(index, { limit: 50, sort: 'newest', ...q }).reviews.map((r) => r.id);
      assert.deepEqual(ids(prepared), ids(lazy), JSON.stringify(q));
    }
    assert.ok(searchReviews(prepared, { limit: 50, sort: 'newest', mentions_technician: 'Al' }).reviews.length > 0);
  });

  it('kept search bytes that do not fit the reviews are not read: the index is made again', async () => {
    const pause = () => yieldToLoop();
    const built = buildReviewIndex(BUSINESS, REVIEWS, 'x');
    await built.prepare(pause);
    const bytes = built.preparedBytes();
    for (const [what, index, kept] of [
      ['fewer reviews', buildReviewIndex(BUSINESS, REVIEWS.slice(1), 'y'), bytes],
      ['cut short', buildReviewIndex(BUSINESS, REVIEWS, 'x'), bytes.subarray(0, bytes.length - 1)],
      ['not an index', buildReviewIndex(BUSINESS, REVIEWS, 'x'), Buffer.from('{}\n')],
      ['keys not JSON', buildReviewIndex(BUSINESS, REVIEWS, 'x'), Buffer.concat([bytes.subarray(0, 4 + bytes.readUInt32LE(0)), Buffer.from('[nope\n')])],
    ] as const) {
      assert.equal(await index.prepare(pause, kept), true, what);
      assert.deepEqual(
        searchReviews(index, { limit: 50, sort: 'newest', query: 'on time' }).reviews.map((r) => r.id),
        searchReviews(buildReviewIndex(BUSINESS, index.reviews, 'z'), { limit: 50, sort: 'newest', query: 'on time' }).reviews.map((r) => r.id),
        what,
      );
    }
  });
});

describe('published reviews kept per revision in the store', () => {
  const BASE = 'https://reviews.example.test';
  const gzipName = keptName('/reviews.json gzip', BASE);
  const indexName = keptName('/reviews.json index', BASE);

  async function dataset(svc: TestService, coding: 'identity' | 'gzip' | 'br'): Promise<{ etag: string | null; body: Buffer }> {
    const res = await request(`${svc.url}/reviews.json`, { headers: { 'accept-encoding': coding } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], coding === 'identity' ? undefined : coding);
    return { etag: String(res.headers.etag), body: Buffer.from(await res.body.arrayBuffer()) };
  }

  it('a restart serves /reviews.json from what the store keeps: its compressed forms as kept, the same bytes and ETag', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS, baseUrl: BASE });
    const before = { identity: await dataset(first, 'identity'), gzip: await dataset(first, 'gzip'), br: await dataset(first, 'br') };
    const { revision } = await first.store.getRevision();
    assert.deepEqual(await first.store.loadKept(revision, gzipName), before.gzip.body, 'the served gzip coding is kept');
    // Kept at another level: same content, other bytes, so serving them shows they were read, not made again.
    const other = gzipSync(before.identity.body, { level: 1 });
    assert.ok(!other.equals(before.gzip.body));
    await first.store.saveKept(revision, gzipName, other);
    await first.close();
    const again = await startTestService({ database, baseUrl: BASE });
    try {
      assert.deepEqual(await dataset(again, 'identity'), before.identity);
      assert.deepEqual((await dataset(again, 'gzip')).body, other, 'the kept gzip is served');
      assert.deepEqual(await dataset(again, 'br'), before.br);
      const since = await (await fetch(`${again.url}/api/reviews/since/2000-01-01`)).json() as { count: number; reviews: unknown[] };
      assert.equal(since.count, REVIEWS.length);
      assert.deepEqual(since.reviews, (JSON.parse(before.identity.body.toString()) as { reviews: unknown[] }).reviews);
    } finally {
      await again.close();
    }
  });

  it('a restart serves the feeds\' compressed forms and the insights ETag as kept; another tagging entity\'s are not used', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS, baseUrl: BASE });
    const feed = async (svc: TestService) => {
      const res = await request(`${svc.url}/feed.xml`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.headers['content-encoding'], 'br');
      return { etag: String(res.headers.etag), body: Buffer.from(await res.body.arrayBuffer()) };
    };
    const before = { feed: await feed(first) };
    const { revision } = await first.store.getRevision();
    // The first start made it; PostgreSQL's store calls create() even then, and keeps the existing value.
    const tag = await first.store.getOrCreateSetting('feed_tag_entity', () => 'not made here');
    assert.notEqual(tag, 'not made here');
    const brName = keptName(`/feed.xml br ${tag}`, BASE);
    assert.deepEqual(await first.store.loadKept(revision, brName), before.feed.body, 'the served brotli coding is kept');
    // Kept at another quality and with another tag: the same content, other bytes, so serving them shows they were read.
    const other = brotliCompressSync(brotliDecompressSync(before.feed.body), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    assert.ok(!other.equals(before.feed.body));
    await first.store.saveKept(revision, brName, other);
    const held = readKeptInsights((await first.store.loadKept(revision, INSIGHTS_KEPT))!, REVIEWS.length)!;
    await first.store.saveKept(revision, INSIGHTS_KEPT, keptInsights({ ...held, etag: 'kept-insights-tag' }));
    await first.close();
    const again = await startTestService({ database, baseUrl: BASE });
    try {
      assert.deepEqual(await feed(again), { etag: before.feed.etag, body: other }, 'the kept brotli form is served');
      const tagged = await request(`${again.url}/insights.json`, { headers: { 'accept-encoding': 'identity' } });
      await tagged.body.dump();
      assert.equal(tagged.headers.etag, '"kept-insights-tag"', 'the kept ETag is sent, not hashed again');
    } finally {
      await again.close();
    }
    // Codings kept under another tagging entity (another installation's feeds) are not used.
    const store = await openTestStore(database);
    await store.saveKept(revision, brName, before.feed.body);
    await store.saveKept(revision, keptName('/feed.xml br other.example.test,2026-01-01', BASE), other);
    await store.close();
    const third = await startTestService({ database, baseUrl: BASE });
    try {
      assert.deepEqual(await feed(third), before.feed);
    } finally {
      await third.close();
    }
  });

  it('kept bytes that do not fit the revision, or made for another origin, are made again, never served', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS, baseUrl: BASE });
    const before = await dataset(first, 'identity');
    const { revision } = await first.store.getRevision();
    const index = (await first.store.loadKept(revision, indexName))!;
    await first.store.saveKept(revision, indexName, index.subarray(0, index.length - 8));
    await first.close();
    const again = await startTestService({ database, baseUrl: BASE });
    try {
      assert.deepEqual(await dataset(again, 'identity'), before);
      assert.deepEqual(gunzipSync((await dataset(again, 'gzip')).body), before.body);
      assert.deepEqual((await again.store.loadKept(revision, indexName))!, index, 'and kept whole again');
    } finally {
      await again.close();
    }
    // An index whose first line is not the JSON it writes: made again too, and the revision still prepared (it is kept again).
    const lines = index.indexOf(0x0a);
    for (const header of ['{nope', '{"etag":1,"start":"x"}', 'null']) {
      const store = await openTestStore(database);
      await store.saveKept(revision, indexName, Buffer.concat([Buffer.from(header), index.subarray(lines)]));
      await store.close();
      const bad = await startTestService({ database, baseUrl: BASE });
      try {
        assert.deepEqual(await dataset(bad, 'identity'), before, header);
        assert.deepEqual((await bad.store.loadKept(revision, indexName))!, index, `${header}: kept whole again`);
      } finally {
        await bad.close();
      }
    }
    const elsewhere = await startTestService({ database, baseUrl: 'https://other.example.test' });
    try {
      const moved = await dataset(elsewhere, 'identity');
      assert.notEqual(moved.etag, before.etag);
      assert.match(moved.body.toString(), /https:\/\/other\.example\.test\//);
      assert.doesNotMatch(moved.body.toString(), /reviews\.example\.test/);
    } finally {
      await elsewhere.close();
    }
  });
});
