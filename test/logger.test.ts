// The logging of a task retried on a timer: one line when it starts failing, a reminder every five minutes, one when it works again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { failureEpisodes } from '../src/logger.js';

describe('failureEpisodes', () => {
  it('logs the first failure with its cause, a reminder with the count every five minutes, and the recovery once', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    let t = 0;
    const log = failureEpisodes(logger, 'refreshing data from the store', () => t);
    log.succeeded();
    assert.equal(lines.length, 0, 'nothing while it works');
    // An hour of failures, one a second.
    for (; t < 3_600_000; t += 1000) log.failed(new Error('connection refused'));
    const failing = lines.filter((l) => l.level === 50);
    assert.equal(failing.length, 12, 'the first and a reminder every five minutes');
    assert.match(String(failing[0]!.msg), /^refreshing data from the store failed; retrying/);
    assert.equal((failing[0]!.err as { message: string }).message, 'connection refused');
    assert.deepEqual([failing[1]!.msg, failing[1]!.failures, failing[1]!.seconds], ['refreshing data from the store still failing', 301, 300]);
    log.succeeded();
    log.succeeded();
    const recovered = lines.filter((l) => l.level === 30);
    assert.deepEqual(recovered.map((l) => [l.msg, l.failures, l.seconds]), [['refreshing data from the store works again', 3600, 3600]]);
    // A new failure is a new episode: said at once.
    log.failed(new Error('again'));
    assert.match(String(lines.at(-1)!.msg), /^refreshing data from the store failed/);
  });
});
