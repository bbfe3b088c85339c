/** Starts the HTTP service over a store: the snapshot, the hub, MCP sessions and the app. */
import type { Logger } from 'pino';
import { loadCostConfig, loadHttpConfig, type CostConfig, type HttpConfig, type HubConfig, type McpConfig } from '../config.js';
import { Metrics } from '../metrics/metrics.js';
import { warmMcp } from '../mcp/mcp-route.js';
import { McpSessions } from '../mcp/sessions.js';
import { McpStreams } from '../mcp/streams.js';
import { installationFeedTag, LiveData } from '../snapshot/live-data.js';
import { BodyCaches } from '../snapshot/body-cache.js';
import { compressor } from '../snapshot/compressor.js';
import { releaseBuild } from '../snapshot/build-digest.js';
import { VERSION } from '../version.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { Hub } from '../websub/hub.js';
import type { Store } from '../store/store.js';
import { buildApp } from './app.js';
import { operations } from './routes.js';
import { StoreOutage } from './store-outage.js';

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
  http?: HttpConfig;
  cost?: CostConfig;
}

/** How long after the server starts listening the MCP SDK is loaded, unless an MCP request came first. */
const MCP_WARM_DELAY_MS = 2000;

/** Starts the HTTP service over a store; closing it stops polling but leaves the store open. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  // Chosen on the first start (or an import given BASE_URL) and kept: entry ids must not change on a restart or a move.
  const tagHost = opts.baseUrl ?? `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}`;
  const feedTag = await installationFeedTag(opts.store, tagHost);
  const cost = opts.cost ?? loadCostConfig({});
  compressor.configure(cost.compressConcurrency);
  // Told once per cache, snapshot and kind of body (keys are `snapshot:kind:...`), not once per request or per date.
  const warned = new Set<string>();
  const caches = new BodyCaches(cost, (cache, key, bytes) => {
    const kind = `${cache}:${key.split(':', 2).join(':')}`;
    if (warned.has(kind)) return;
    if (warned.size >= 1024) warned.clear();
    warned.add(kind);
    opts.logger.warn({ cache, key, mb: Math.round(bytes / 1048576) }, `a body is larger than the whole ${cache} cache, so it is built again for every request; raise ${cache === 'documents' ? 'CACHE_DOCUMENT_MB' : 'CACHE_ANSWER_MB'}`);
  });
  const live = await LiveData.open(opts.store, opts.logger, feedTag, caches);
  const metrics = new Metrics();
  metrics.describeBuild(VERSION, releaseBuild());
  metrics.watchInsights(() => live.analysedReviews);
  metrics.watchCaches(() => ({ documents: caches.documents, answers: caches.answers, compressionsPending: compressor.pending }));
  metrics.watchDocuments(() => live.current().heldBytes);
  const track = (snap: Snapshot) => {
    metrics.revision.set(snap.revision.revision);
    metrics.reviews.set(snap.index.reviews.length);
  };
  track(live.current());
  live.on('snapshot', track);
  let baseUrl = opts.baseUrl ?? '';
  const hub = new Hub(opts.store, live, opts.hub, () => baseUrl, opts.logger, metrics);
  const http = opts.http ?? loadHttpConfig({});
  const sessions = await McpSessions.open(opts.store, opts.mcp);
  const streams = new McpStreams({ live, baseUrl: () => baseUrl, alive: async (token) => (await sessions.check(token)) === 'ok', idleMs: opts.mcp.sessionIdleSeconds * 1000 });
  const ctx = {
    live,
    hub,
    metrics,
    http,
    cost,
    rateLimits: opts.store,
    health: opts.store,
    outage: new StoreOutage(opts.logger),
    mcp: { sessions, streams, config: opts.mcp, version: VERSION },
    get baseUrl() {
      return baseUrl;
    },
  };
  const app = await buildApp(operations, ctx, opts.logger, opts.trustProxy ?? false, http);
  // Documents that need the public origin are made for every snapshot before it is served; with a
  // BASE_URL, the first snapshot's before the server listens, so no first visitor waits for them.
  const prepareDocuments = (snap: Snapshot) => snap.prepareDocuments(baseUrl, opts.store);
  if (opts.baseUrl) await live.beforeServing(prepareDocuments);
  await app.listen({ host: opts.host, port: opts.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  if (!baseUrl) baseUrl = url;
  // Without a BASE_URL the origin is known once listening: the first snapshot's documents are made then.
  if (!opts.baseUrl) await live.beforeServing(prepareDocuments);
  live.watch(opts.revisionPollMs);
  await hub.start();
  // The MCP SDK a little after serving starts: loading it at once would hold up the first requests
  // of a restart by as long as it saved; an MCP request before then loads it itself.
  const warming = setTimeout(() => warmMcp().catch((err: unknown) => opts.logger.error({ err }, 'loading the MCP SDK failed')), MCP_WARM_DELAY_MS).unref();
  return {
    app,
    live,
    hub,
    url,
    /** Stops accepting, lets in-flight requests and hub deliveries finish; leaves the store open. */
    async close() {
      clearTimeout(warming);
      live.off('snapshot', track);
      live.close();
      // Open MCP streams never finish by themselves, so they are ended first.
      streams.close();
      await Promise.all([app.close(), hub.close()]);
    },
  };
}
