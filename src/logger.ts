import { destination, pino, type Logger } from 'pino';

/** JSON logs to stderr, so stdout stays free for command output (export, hub list). */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'reviewcast' } }, destination(2));
}
