// /healthz asks the store: 503 store_unavailable once the database can not answer a read.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import pg from 'pg';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { recordingLogger, startTestService, TEST_STORE } from './helpers.js';

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
      assert.equal(((await ok.json()) as { status: string }).status, 'ok');
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
});
