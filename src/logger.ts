/** The pino logger. */
import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/** A short pause for a full non-blocking pipe, without a timer (log writes are synchronous). */
const pause = new Int32Array(new SharedArrayBuffer(4));
const EAGAIN_RETRIES = 100;

/**
 * stderr as a log sink that gives up for good once its reader is gone. pino's own destination
 * retries a failed write forever when the process exits, so `serve 2>&1 | head -3` never finished
 * a SIGTERM: here EPIPE (or any error but a full pipe) ends logging, never the service. A full
 * pipe (EAGAIN) is waited on briefly, then the line is dropped.
 */
export function stderrSink(fd = 2): DestinationStream & { dead: boolean } {
  const sink = {
    dead: false,
    write(line: string): void {
      if (sink.dead) return;
      let buf = Buffer.from(line);
      let retries = 0;
      while (buf.length > 0) {
        try {
          buf = buf.subarray(writeSync(fd, buf));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && retries++ < EAGAIN_RETRIES) {
            Atomics.wait(pause, 0, 0, 10);
            continue;
          }
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') sink.dead = true;
          return;
        }
      }
    },
  };
  return sink;
}

/**
 * Logs go to stderr, so stdout stays free for command output (export, hub list): readable lines
 * for a person at a terminal, one JSON object per line for anything else (a file, a pipe, a log
 * collector). The choice is made once, from whether stderr is a terminal.
 */
export function createLogger(level: string, terminal = Boolean(process.stderr.isTTY)): Logger {
  const base = { service: 'reviewcast' };
  if (!terminal) return pino({ level, base }, stderrSink());
  return pino({ level, base }, pretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss.l' }));
}

/** While a repeated task keeps failing, a reminder this often (not a line per try); a store outage met by requests too (http/store-outage.ts). */
export const STILL_FAILING_MS = 5 * 60_000;

/**
 * The log of a task retried on a timer (following the store): its first failure with the cause,
 * then nothing per try but a reminder every five minutes with the count, and one line when it
 * works again. A database outage of an hour was six thousand stack traces per replica.
 */
export function failureEpisodes(logger: Logger, task: string, now: () => number = Date.now): { failed(err: unknown): void; succeeded(): void } {
  let since: number | null = null;
  let failures = 0;
  let reminded = 0;
  return {
    failed(err) {
      failures++;
      const t = now();
      if (since === null) {
        since = reminded = t;
        logger.error({ err }, `${task} failed; retrying, and saying so again every ${STILL_FAILING_MS / 60_000} minutes while it fails`);
      } else if (t - reminded >= STILL_FAILING_MS) {
        reminded = t;
        logger.error({ err, failures, seconds: Math.round((t - since) / 1000) }, `${task} still failing`);
      }
    },
    succeeded() {
      if (since === null) return;
      logger.info({ failures, seconds: Math.round((now() - since) / 1000) }, `${task} works again`);
      since = null;
      failures = 0;
    },
  };
}
