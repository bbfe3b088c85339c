import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deterministicUlid } from '../src/core/ids.js';
import type { Review } from '../src/core/schema/review.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { ROOT, builtCli, eventually, freshDatabase, openTestStore, runCli, startServeProcess, tempDir } from './helpers.js';
import { CallbackServer, makeTestCa, type TestCa } from './websub-helpers.js';

const OLD = REVIEWS.length;
const NEW = 20_000;

function manyReviews(n: number): Review[] {
  return Array.from({ length: n }, (_, i) => ({
    ...REVIEWS[i % REVIEWS.length]!,
    id: deterministicUlid(`crash-${i}`, '2024-03-01'),
    text: `Review number ${i}: the technician was on time and fixed the leak.`,
  }));
}

async function seeded(): Promise<string> {
  const database = await freshDatabase();
  const store = await openTestStore(database);
  await store.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
  await store.close();
  return database;
}

/** Starts a CLI import and kills it with SIGKILL after `ms`; resolves with how it ended. */
function importKilledAfter(database: string, file: string, ms: number): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), 'import', file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

describe('crash safety: kill -9 during a large import', () => {
  let file: string;
  let fullMs: number;
  before(async () => {
    file = join(tempDir(), 'big.json');
    writeFileSync(file, JSON.stringify(manyReviews(NEW)));
    const database = await seeded();
    const t0 = Date.now();
    const res = await runCli(['import', file], { DATABASE_URL: database });
    assert.equal(res.code, 0, res.stderr);
    fullMs = Date.now() - t0;
  });

  // Kills spread over the import's run time: while parsing, validating, writing and committing.
  for (const fraction of [0.3, 0.6, 0.8, 0.9, 0.95]) {
    it(`killed at ${Math.round(fraction * 100)}% of its run time: the data is all old or all new, and the database takes the next import`, async () => {
      const database = await seeded();
      const store = await openTestStore(database);
      const before = await store.getRevision();
      await store.close();
      const ended = await importKilledAfter(database, file, Math.round(fullMs * fraction));
      const after = await openTestStore(database);
      try {
        const data = await after.load();
        const revision = await after.getRevision();
        if (ended.signal === 'SIGKILL' && data.reviews.length === OLD) {
          assert.deepEqual(revision, before, 'nothing committed: the revision did not move');
        } else {
          assert.equal(data.reviews.length, OLD + NEW, `killed (${ended.signal ?? ended.code}) with ${data.reviews.length} reviews`);
          assert.ok(revision.revision > before.revision);
        }
        assert.equal(data.business?.name, BUSINESS.name);
      } finally {
        await after.close();
      }
      const again = await runCli(['import', file], { DATABASE_URL: database });
      assert.equal(again.code, 0, again.stderr);
      const final = await openTestStore(database);
      assert.equal((await final.load()).reviews.length, OLD + NEW);
      await final.close();
    });
  }
});

describe('crash safety: kill -9 during hub delivery', () => {
  let ca: TestCa;
  let cb: CallbackServer;
  let dir: string;
  before(async () => {
    ca = await makeTestCa();
    cb = await CallbackServer.start(ca);
    dir = tempDir();
    writeFileSync(join(dir, 'ca.pem'), ca.caCert);
  });
  after(() => cb.close());

  it('a delivery under way when the server dies is delivered after the restart (at least once)', async () => {
    const database = await seeded();
    const env = {
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      HUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      HUB_POLL_MS: '50',
      HUB_CLAIM_MS: '1000',
      HUB_TIMEOUT_MS: '30000',
      REVISION_POLL_MS: '100',
    };
    let first = await startServeProcess(database, { env });
    let holding = true;
    // The first delivery is held open until the server has been killed.
    cb.behaviour = async (req) => {
      if (req.method === 'GET') return { status: 200, body: req.url.searchParams.get('hub.challenge') ?? '' };
      while (holding) await new Promise((r) => setTimeout(r, 20));
      return { status: 204 };
    };
    try {
      const sub = await fetch(`${first.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'hub.callback': cb.url('/crash'), 'hub.mode': 'subscribe', 'hub.topic': `${first.url}/feed.xml` }),
      });
      assert.equal(sub.status, 202);
      assert.ok(await eventually(async () => cb.gets('/crash').length === 1, 5000), 'verified');
      await new Promise((r) => setTimeout(r, 300));
      const file = join(dir, 'one.json');
      writeFileSync(file, JSON.stringify(manyReviews(1)));
      assert.equal((await runCli(['import', file], { DATABASE_URL: database })).code, 0);
      // The request has arrived (the callback server records it before answering): the server dies mid-delivery.
      assert.ok(await eventually(async () => cb.posts('/crash').length === 1, 5000), 'delivery started');
      first.child.kill('SIGKILL');
      assert.equal(await first.exited, 'SIGKILL');
      holding = false;
      const sent = cb.posts('/crash')[0]!.body.toString();
      assert.match(sent, /Review number 0/);

      // Restarted as a supervisor would: same address, same database.
      first = await startServeProcess(database, { env, port: Number(new URL(first.url).port) });
      // The claim lapses and the new process delivers the same content again.
      assert.ok(await eventually(async () => cb.posts('/crash').length >= 2, 10_000), 'delivered again after the restart');
      assert.equal(cb.posts('/crash')[1]!.body.toString(), sent);
      const store = await openTestStore(database);
      try {
        assert.ok(await eventually(async () => (await store.listSubscriptions())[0]?.failures === 0, 3000));
      } finally {
        await store.close();
      }
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
  });
});
