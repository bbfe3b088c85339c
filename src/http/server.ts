import type { Logger } from 'pino';
import { LiveData } from '../live/live-data.js';
import type { Store } from '../store/store.js';
import { buildApp } from './app.js';
import { operations } from './routes.js';

export interface RunningServer {
  app: ReturnType<typeof buildApp>;
  live: LiveData;
  /** Where it listens, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  store: Store;
  logger: Logger;
  host: string;
  port: number;
  /** Public origin; defaults to the address it listens on. */
  baseUrl?: string;
  revisionPollMs: number;
}

/** Starts the HTTP service over a store; closing it stops polling but leaves the store open. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const live = await LiveData.open(opts.store, opts.logger);
  let baseUrl = opts.baseUrl ?? '';
  const ctx = {
    live,
    get baseUrl() {
      return baseUrl;
    },
  };
  const app = buildApp(operations, ctx, opts.logger);
  await app.listen({ host: opts.host, port: opts.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  if (!baseUrl) baseUrl = url;
  live.watch(opts.revisionPollMs);
  return {
    app,
    live,
    url,
    async close() {
      live.close();
      await app.close();
    },
  };
}
