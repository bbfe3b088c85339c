/** The pino logger. */
import { destination, pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * Logs go to stderr, so stdout stays free for command output (export, hub list): readable lines
 * for a person at a terminal, one JSON object per line for anything else (a file, a pipe, a log
 * collector). The choice is made once, from whether stderr is a terminal.
 */
export function createLogger(level: string, terminal = Boolean(process.stderr.isTTY)): Logger {
  const base = { service: 'reviewcast' };
  if (!terminal) return pino({ level, base }, destination(2));
  return pino({ level, base }, pretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss.l' }));
}
