// /healthz asks the store: 503 store_unavailable once the database can not answer a read.
import assert from 'node:assert/strict';
import { copyFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import pg from 'pg';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { releaseBuild } from '../src/snapshot/build-digest.js';
import { VERSION } from '../src/version.js';
import { eventually, recordingLogger, startTestService, TEST_STORE } from './helpers.js';

/** Takes the database away under a running server: the SQLite file overwritten, the PostgreSQL database dropped. */
async function breakDatabase(database: string): Promise<void> {
  if (TEST_STORE === 'sqlite') {
    writeFileSync(database, Buffer.alloc(65_536, 0x42));
    return;
  }
  const admin = new URL(database);
  const name = admin.pathname.slice(1);
  admin.pathname = '/test';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

describe('/healthz', () => {
  it('answers 200 while the store answers, 503 store_unavailable (logged with the cause) once it can not', async () => {
    const { logger, lines } = recordingLogger();
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS, logger });
    try {
      const ok = await fetch(`${svc.url}/healthz`);
      assert.equal(ok.status, 200);
      // What it runs too, so a rollout can be checked replica by replica: the release and the build.
      const healthy = (await ok.json()) as { status: string; version: string; build: string };
      assert.deepEqual([healthy.status, healthy.version, healthy.build], ['ok', VERSION, releaseBuild()]);
      const metrics = await (await fetch(`${svc.url}/metrics`)).text();
      assert.ok(metrics.includes(`reviewcast_build_info{version="${VERSION}",build="${releaseBuild()}"} 1\n`), metrics.split('\n').filter((l) => l.includes('build')).join('\n'));
      await breakDatabase(svc.database);
      const res = await fetch(`${svc.url}/healthz`);
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const body = (await res.json()) as { error: string; message: string };
      assert.equal(body.error, 'store_unavailable');
      assert.ok(lines.some((l) => l.msg === 'health check failed: the store can not answer a read' && l.err !== undefined));
      // The data already loaded is still served: only the health check says the store is gone.
      assert.equal((await fetch(`${svc.url}/reviews.json`)).status, 200);
    } finally {
      await svc.server.close();
      await svc.store.close().catch(() => undefined);
    }
  });

  for (const [how, change] of [
    ['removed', (db: string) => rmSync(db)],
    // A backup put in its place with mv: a sound SQLite file with the same data, but not the one this process reads.
    ['replaced by a copy of itself', (db: string) => {
      copyFileSync(db, `${db}.copy`);
      renameSync(`${db}.copy`, db);
    }],
  ] as const) {
    it(`SQLite: 503 once the file the service opened is ${how}, naming what happened`, { skip: TEST_STORE !== 'sqlite' && 'a SQLite file' }, async () => {
      const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
      try {
        assert.equal((await fetch(`${svc.url}/healthz`)).status, 200);
        change(svc.database);
        const res = await fetch(`${svc.url}/healthz`);
        assert.equal(res.status, 503);
        assert.equal(((await res.json()) as { error: string }).error, 'store_unavailable');
        await assert.rejects(svc.store.checkHealth(), how === 'removed' ? /has been removed since the service opened it/ : /is another file than the one the service opened/);
      } finally {
        await svc.server.close();
        await svc.store.close().catch(() => undefined);
      }
    });
  }

  it('PostgreSQL: the service\'s connections are named in pg_stat_activity, so an operator can tell them from others', { skip: TEST_STORE !== 'postgres' && 'PostgreSQL connections' }, async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    const admin = new URL(svc.database);
    const name = admin.pathname.slice(1);
    admin.pathname = '/test';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      assert.equal((await fetch(`${svc.url}/healthz`)).status, 200);
      const names = async () => (await client.query<{ application_name: string }>('SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = $1 ORDER BY 1', [name])).rows.map((r) => r.application_name);
      // The listening connection is opened beside the start, not awaited by it.
      await eventually(async () => (await names()).length === 2, 5_000);
      assert.deepEqual(await names(), ['reviewcast', 'reviewcast (listening for changes)']);
    } finally {
      await client.end();
      await svc.server.close();
      await svc.store.close().catch(() => undefined);
    }
  });
});
