/**
 * The Store on PostgreSQL, for several replicas sharing one database: migrations under an
 * advisory lock, imports serialised by another, hub work claimed with FOR UPDATE SKIP LOCKED,
 * and every revision change announced with NOTIFY. Composes the store of each concern over one pool.
 */
import pg from 'pg';
import type { Store } from '../store.js';
import { postgresHubStore } from './hub.js';
import { postgresKeptStore } from './kept.js';
import { postgresMcpSessionStore } from './mcp-sessions.js';
import { postgresMigrations } from './migrations.js';
import { postgresRateLimitStore } from './rate-limits.js';
import { postgresReviewStore } from './reviews.js';
import { postgresSettingsStore } from './settings.js';
import { APPLICATION_NAME, tx } from './sql.js';

// Epoch milliseconds are BIGINT: read them as numbers (exact below 2^53, far beyond any date here).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

/** An arbitrary constant naming the advisory lock migrations run under. */
const MIGRATION_LOCK = 726_115_001;

/** Safe when several replicas start at once: one migrates while the others wait on the lock. */
async function migrate(pool: pg.Pool): Promise<void> {
  await tx(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query('CREATE TABLE IF NOT EXISTS reviewcast_schema (version INTEGER NOT NULL)');
    const row = (await c.query<{ version: number }>('SELECT version FROM reviewcast_schema')).rows[0];
    const version = row?.version ?? 0;
    if (version > postgresMigrations.length) {
      throw new Error(`database schema version ${version} is newer than this reviewcast (${postgresMigrations.length}); upgrade reviewcast`);
    }
    for (let v = version; v < postgresMigrations.length; v++) await c.query(postgresMigrations[v]!);
    if (row) await c.query('UPDATE reviewcast_schema SET version = $1', [postgresMigrations.length]);
    else await c.query('INSERT INTO reviewcast_schema (version) VALUES ($1)', [postgresMigrations.length]);
  });
}

/** A database that does not answer a connection within this is unreachable (a dropped route would otherwise hang the start for good). */
const CONNECT_TIMEOUT_MS = 10_000;

export async function openPostgresStore(url: string): Promise<Store> {
  // One connection with a deadline first: the pool has none, as one would also cut short a wait for a busy pool under load.
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, fallback_application_name: APPLICATION_NAME });
  const started = Date.now();
  try {
    await probe.connect();
  } catch (err) {
    await probe.end().catch(() => undefined);
    // pg words a timeout as a terminated connection; the clock says which it was.
    throw Date.now() - started >= CONNECT_TIMEOUT_MS ? new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s (connection timeout)`) : err;
  }
  await probe.end();
  const pool = new pg.Pool({ connectionString: url, max: 10, fallback_application_name: APPLICATION_NAME });
  // An idle connection that fails (server restart, network) is dropped by the pool and the next query opens another.
  pool.on('error', () => {});
  await migrate(pool);
  const { stopListening, ...reviews } = postgresReviewStore(pool, url);
  return {
    ...reviews,
    ...postgresHubStore(pool),
    ...postgresMcpSessionStore(pool),
    ...postgresRateLimitStore(pool),
    ...postgresSettingsStore(pool),
    ...postgresKeptStore(pool),
    async checkHealth() {
      await pool.query("SELECT value FROM meta WHERE key = 'revision'");
    },
    async close() {
      await stopListening();
      await pool.end();
    },
  };
}
