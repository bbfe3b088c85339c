import type { Logger } from 'pino';
import { readFileSync } from 'node:fs';
import type { HubConfig, McpConfig } from '../config.js';
import { McpSessions } from '../mcp/sessions.js';
import { LiveData } from '../live/live-data.js';
import { Hub } from '../websub/hub.js';
import type { Store } from '../store/store.js';
import { buildApp } from './app.js';
import { operations } from './routes.js';

export interface RunningServer {
  app: Awaited<ReturnType<typeof buildApp>>;
  live: LiveData;
  hub: Hub;
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
  trustProxy?: boolean;
  hub: HubConfig;
  mcp: McpConfig;
}

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Starts the HTTP service over a store; closing it stops polling but leaves the store open. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const live = await LiveData.open(opts.store, opts.logger);
  let baseUrl = opts.baseUrl ?? '';
  const hub = new Hub(opts.store, live, opts.hub, () => baseUrl, opts.logger);
  const ctx = {
    live,
    hub,
    mcp: { sessions: await McpSessions.open(opts.store, opts.mcp), config: opts.mcp, version: VERSION },
    get baseUrl() {
      return baseUrl;
    },
  };
  const app = await buildApp(operations, ctx, opts.logger, opts.trustProxy ?? false);
  await app.listen({ host: opts.host, port: opts.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  if (!baseUrl) baseUrl = url;
  live.watch(opts.revisionPollMs);
  await hub.start();
  return {
    app,
    live,
    hub,
    url,
    async close() {
      live.close();
      await app.close();
      await hub.close();
    },
  };
}
