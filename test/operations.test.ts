// Operating the server: a stop that never waits on a dead log pipe, a store that cannot open reported in one line with its own exit code.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stderrSink } from '../src/logger.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { freshDatabase, openTestStore, runCli, startServeProcess, tempDir } from './helpers.js';

describe('a log pipe whose reader has gone', () => {
  // The timeout turns the old failure, a stop that never ends, into a failed test rather than a hung run.
  it('serve still stops on SIGTERM, exit 0, when nobody reads its stderr any more (serve 2>&1 | head -3)', { timeout: 60_000 }, async () => {
    const database = await freshDatabase('sqlite');
    const seed = await openTestStore(database);
    await seed.importReviews({ reviews: REVIEWS, business: BUSINESS, replace: false, dryRun: false });
    await seed.close();
    const proc = await startServeProcess(database, { env: { LOG_LEVEL: 'info' } });
    // What `head` does once it has its lines: closes its end of the pipe. The next log line, the
    // shutdown's, is the first write to fail (EPIPE).
    proc.child.stdout!.destroy();
    proc.child.stderr!.destroy();
    proc.child.kill('SIGTERM');
    assert.equal(await proc.exited, 0);
  });

  it('the sink stops writing after EPIPE and never throws', () => {
    // fd 1e6 is not open: every write fails (EBADF), as a closed pipe does (EPIPE).
    const sink = stderrSink(1_000_000);
    sink.write('{"msg":"one"}\n');
    assert.equal(sink.dead, true);
    sink.write('{"msg":"two"}\n');
  });
});

describe('a store that cannot be opened', () => {
  it('serve on a PostgreSQL that accepts the connection and never answers: one line, exit code 3, after the connect timeout', async () => {
    // What a dropped route or a hung server looks like from here: the start must not wait for ever.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { port } = silent.address() as { port: number };
      const res = await runCli(['serve'], { DATABASE_URL: `postgres://app@127.0.0.1:${port}/reviews`, PORT: '0' });
      assert.equal(res.code, 3, res.stderr);
      assert.match(res.stderr.trim(), new RegExp(`^reviewcast: cannot open the store at DATABASE_URL=postgres://app@127\\.0\\.0\\.1:${port}/reviews: no answer within 10 s \\(connection timeout\\)$`));
    } finally {
      silent.close();
    }
  });

  const corrupt = () => {
    const file = join(tempDir(), 'corrupt.db');
    writeFileSync(file, Buffer.alloc(8192, 0x41));
    return file;
  };
  const cases: [string, () => string, RegExp][] = [
    ['a corrupt SQLite file', corrupt, /^reviewcast: cannot open the store at DATABASE_URL=\/.*corrupt\.db: file is not a database$/],
    ['an unreachable PostgreSQL', () => 'postgres://app:hunter2@127.0.0.1:1/reviews', /^reviewcast: cannot open the store at DATABASE_URL=postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/reviews: .*ECONNREFUSED/],
    ['a SQLite path whose folder is a file', () => join(corrupt(), 'x.db'), /^reviewcast: cannot open the store at DATABASE_URL=\/.*corrupt\.db\/x\.db: EEXIST/],
  ];
  for (const [what, database, message] of cases) {
    for (const command of [['serve'], ['export'], ['hub', 'list']]) {
      it(`${command.join(' ')} on ${what}: one line naming DATABASE_URL and the cause, exit code 3, no stack trace`, async () => {
        const res = await runCli(command, { DATABASE_URL: database(), PORT: '0' });
        assert.equal(res.code, 3, res.stderr);
        assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
        assert.match(res.stderr.trim(), message);
        assert.doesNotMatch(res.stderr, /hunter2|\n\s+at /);
      });
    }
  }
});
