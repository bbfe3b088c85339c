/** What the PostgreSQL stores share: the connections' name, a transaction helper and the meta table's key-value rows. */
import type pg from 'pg';

/** How the service's connections are named in pg_stat_activity, unless DATABASE_URL's application_name says otherwise. */
export const APPLICATION_NAME = 'reviewcast';

/**
 * Runs `fn` on a connection of its own. A checked-out client whose connection drops (the
 * database restarted or dropped) emits 'error' besides failing its query, and an unheard
 * 'error' would end the process: it is heard here, the query's failure is what is reported,
 * and a client that failed is discarded rather than handed to the next caller.
 */
export async function withClient<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  const ignore = (): void => undefined;
  c.on('error', ignore);
  let failed: Error | undefined;
  try {
    return await fn(c);
  } catch (err) {
    failed = err as Error;
    throw err;
  } finally {
    c.removeListener('error', ignore);
    c.release(failed);
  }
}

/** Runs `fn` in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function tx<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (c) => {
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}

export async function meta(c: pg.ClientBase | pg.Pool, key: string): Promise<string | undefined> {
  return (await c.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key])).rows[0]?.value;
}

export async function setMeta(c: pg.ClientBase, key: string, value: string): Promise<void> {
  await c.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}
