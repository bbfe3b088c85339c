/** The route table: every endpoint of the service, its documentation, validation and handler. */
import { ATOM_CONTENT_TYPE } from '../core/feeds/atom.js';
import { HUB_PATH, type TopicPath } from '../core/feeds/websub-topics.js';
import { InsightsSchema } from '../core/schema/insights.js';
import { JsonFeedSchema } from '../core/schema/jsonfeed.js';
import { jsonSchemaOf } from '../core/schema/json-schema.js';
import { HubRequestSchema } from '../core/schema/websub.js';
import { InvalidCursor, searchReviews } from '../core/search.js';
import { handleHubRequest } from '../websub/hub-route.js';
import { TOOLS } from '../mcp/tools.js';
import { MCP_PATH, handleMcpDelete, handleMcpGet, handleMcpPost, storeUnavailableAnswer, type McpAnswer, type McpRequest, type McpEndpoint } from '../mcp/mcp-route.js';
import { apiReferenceOperations, embedPageOperation, pageOperations, reviewPageOperation, widgetScriptOperation } from './page-routes.js';
import type { OpenApiDoc } from '../pages/api-reference.js';
import { WidgetDataQuerySchema, WidgetDataSchema } from '../core/schema/widget.js';
import { widgetData } from '../pages/widget.js';
import { topicLinkHeader } from '../websub/hub.js';
import { ReviewsDatasetSchema } from '../core/schema/dataset.js';
import { ErrorBodySchema } from '../core/schema/error.js';
import { SearchQuerySchema, SearchResultSchema, SincePathSchema, SinceQuerySchema, SinceResultSchema } from '../core/schema/search.js';
import { payloadOf, sendRepresentation, type SendOptions, type Served } from './conditional.js';
import { partsLength } from '../snapshot/representation.js';
import { PUBLIC_CORS } from './cors.js';
import { plainText, sendError } from './errors.js';
import { buildOpenApi } from './openapi.js';
import type { Handler, Operation, ServiceContext } from './operation.js';
import { STORE_RETRY_AFTER_SECONDS, storeUnreachable } from './store-outage.js';
import { validateParams } from './validation.js';
import type { z } from 'zod';
import type { Representation } from '../snapshot/representation.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { releaseBuild } from '../snapshot/build-digest.js';
import { VERSION } from '../version.js';

const validationError = {
  description:
    'Invalid parameters: unknown, repeated, of the wrong type, out of range, or not valid percent-encoded UTF-8 (issue code `invalid_encoding`); the body lists each problem in `issues`',
  schema: ErrorBodySchema,
};
const originRefused = { description: 'Origin not allowed (or, served on loopback, a Host that is not a loopback name); the answer grants no origin: no Access-Control-Allow-Origin', contentType: 'application/json' };
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };
/** MCP checks its sessions in the store: while the store can not be reached, a request is answered 503. */
const STORE_UNREACHABLE_MCP = 'the store (where sessions are checked) can not be reached: -32000 with `data.error` `store_unavailable`';
const mcpStoreUnavailable = { description: `When ${STORE_UNREACHABLE_MCP}; retry after Retry-After seconds`, contentType: 'application/json', headers: RETRY_AFTER };
const plain = (description: string) => ({ description, contentType: 'text/plain' });

function topicDocument(topic: TopicPath) {
  // The send options depend only on the public origin, which is set once: made again only if it changes, not per request.
  let origin: string | undefined;
  let opts: SendOptions = {};
  return ({ live, baseUrl }: ServiceContext): Served => {
    if (baseUrl !== origin) {
      origin = baseUrl;
      opts = { headers: { link: topicLinkHeader(baseUrl, topic) } };
    }
    return { rep: live.current().topic(topic, baseUrl), opts };
  };
}

/** A store that does not answer within this is as unhealthy as one that fails (an unreachable database would otherwise hang the check). */
const HEALTH_DEADLINE_MS = 5000;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The parameters and handler of an endpoint that validates its query and path parameters (400
 * naming every problem, unknown query parameters included) and answers from the current
 * snapshot. The schemas it checks are the ones the OpenAPI document lists, so the two cannot disagree.
 */
function validated<Q extends z.ZodObject, P extends z.ZodObject = z.ZodObject<Record<string, never>>>(
  schemas: { query: Q; params?: P },
  answer: (valid: { query: z.infer<Q>; params: z.infer<P> }, snap: Snapshot, baseUrl: string) => Representation,
): { query: Q; params?: P; handler: Handler } {
  const { query, params } = schemas;
  const handler: Handler = (req, reply, { live, baseUrl }) => {
    const p = params ? validateParams(params, req.params as Record<string, unknown>) : { ok: true as const, value: {} as z.infer<P> };
    const q = validateParams(query, req.query as Record<string, unknown>);
    if (!p.ok || !q.ok) {
      const where = !p.ok && !q.ok ? 'Invalid path and query parameters' : !p.ok ? 'Invalid path parameter' : 'Invalid query parameters';
      return sendError(reply, 'validation_error', where, { issues: [...(p.ok ? [] : p.issues), ...(q.ok ? [] : q.issues)], headers: PUBLIC_CORS });
    }
    try {
      return sendRepresentation(req, reply, answer({ query: q.value, params: p.value }, live.current(), baseUrl), { answer: true });
    } catch (e) {
      // A cursor from another revision or search is a parameter problem, answered like any other.
      if (e instanceof InvalidCursor) {
        return sendError(reply, 'validation_error', 'Invalid query parameters', { issues: [{ parameter: 'cursor', code: 'invalid_cursor', message: e.message }], headers: PUBLIC_CORS });
      }
      throw e;
    }
  };
  return { query, ...(params ? { params } : {}), handler };
}

/**
 * An MCP endpoint handler as a route handler: the raw body and headers in, its answer out. Sessions
 * are checked in the store, so while it can not be reached the answer is MCP's own 503, logged once.
 */
function mcpHandler(handle: (req: McpRequest, ctx: McpEndpoint) => Promise<McpAnswer>): Handler {
  return async (req, reply, ctx) => {
    const request: McpRequest = { headers: req.headers, body: typeof req.body === 'string' ? req.body : '' };
    const endpoint: McpEndpoint = { live: ctx.live, baseUrl: ctx.baseUrl, ...ctx.mcp };
    let answer: McpAnswer;
    try {
      answer = await handle(request, endpoint);
    } catch (err) {
      if (!storeUnreachable(err)) throw err;
      ctx.outage.report(err);
      answer = storeUnavailableAnswer(request, endpoint, STORE_RETRY_AFTER_SECONDS);
    }
    reply.code(answer.status).headers(answer.headers);
    if (answer.stream) return reply.send(answer.stream);
    if (!Array.isArray(answer.body)) return reply.send(answer.body);
    // Several buffers go out as a stream, so fastify leaves Content-Length to us.
    const parts = answer.body as readonly Buffer[];
    return reply.header('content-length', partsLength(parts)).send(payloadOf(parts));
  };
}

/** Every endpoint of the service, top to bottom. The OpenAPI document is generated from this table. */
export const operations: Operation[] = [
  ...pageOperations,
  // Called per request, when `operations` is complete.
  ...apiReferenceOperations((baseUrl) => buildOpenApi(operations, baseUrl) as unknown as OpenApiDoc),
  {
    method: 'GET',
    path: '/reviews.json',
    operationId: 'getReviewsDataset',
    tag: 'Datasets',
    summary: 'Full reviews dataset',
    description: 'The business profile, the aggregate rating and every published review, newest first. A WebSub topic.',
    conditional: true,
    topic: true,
    responses: { '200': { description: 'The dataset', schema: ReviewsDatasetSchema } },
    document: topicDocument('/reviews.json'),
  },
  {
    method: 'GET',
    path: '/insights.json',
    operationId: 'getInsights',
    tag: 'Datasets',
    summary: 'Aspect-based sentiment insights',
    description:
      'Aspects (a fixed, versioned taxonomy for service businesses, extendable in the business profile), entities (technicians, services, problems, service areas), topics, monthly figures and trend, per-review analysis, an FAQ, a summary and a pull quote. Computed locally and deterministically from the reviews whenever they change; `generated_at` is the time of the data change it reflects.',
    conditional: true,
    responses: { '200': { description: 'The insights document', schema: InsightsSchema } },
    document: ({ live }) => ({ rep: live.current().insightsDocument() }),
  },
  {
    method: 'GET',
    path: '/api/feed.json',
    operationId: 'getJsonFeed',
    tag: 'Feeds',
    summary: 'JSON Feed 1.1 of the 50 newest reviews',
    description:
      'A JSON Feed 1.1 document (served as application/json). Each item carries the rating and other review fields in the `_reviewcast` extension. A WebSub topic: `hubs` names the hub.',
    conditional: true,
    topic: true,
    responses: { '200': { description: 'The feed', schema: JsonFeedSchema } },
    document: topicDocument('/api/feed.json'),
  },
  {
    method: 'GET',
    path: '/feed.xml',
    operationId: 'getAtomFeed',
    tag: 'Feeds',
    summary: 'Atom feed of the 50 newest reviews',
    description: 'RFC 4287 Atom feed with `link rel="self"` and `link rel="hub"`. A WebSub topic.',
    conditional: true,
    topic: true,
    responses: { '200': { description: 'The Atom feed', contentType: ATOM_CONTENT_TYPE } },
    document: topicDocument('/feed.xml'),
  },
  {
    method: 'POST',
    path: HUB_PATH,
    operationId: 'websubHub',
    tag: 'WebSub',
    summary: 'Subscribe to or unsubscribe from a topic (W3C WebSub hub)',
    description:
      'Form-encoded subscription request. Answered 202 at once; the hub then verifies intent with a GET to the callback carrying hub.mode, hub.topic, hub.challenge and hub.lease_seconds, and activates the subscription only if the callback answers 2xx with exactly the challenge. Each change of the topic is then POSTed in full to the callback with the topic\'s Content-Type, a Link header (rel="hub", rel="self") and, when a secret was given, X-Hub-Signature: sha256=<hex HMAC>. Three consecutive failed deliveries (or one 410 Gone) remove the subscription; leases are clamped to the configured bounds. The callback is stored and keyed in its normalised form.',
    rateLimited: true,
    plainTextErrors: true,
    ownCors: true,
    requestBody: {
      contentType: 'application/x-www-form-urlencoded',
      description: 'hub.callback, hub.mode and hub.topic are required; unknown fields are ignored',
      schema: jsonSchemaOf(HubRequestSchema, 'input'),
    },
    responses: {
      '202': plain('Accepted: verification of intent follows asynchronously'),
      '400': plain(
        'Invalid request; the body is the error code, a colon and the reason: `validation_error` (not HTTPS, unknown topic, missing field, bad mode, secret too long ...), `invalid_callback` (a control character in hub.callback, or an address that is not public), `bad_request` (a hub.* value that is not valid percent-encoded UTF-8)',
      ),
      '415': plain('Body is not application/x-www-form-urlencoded (`unsupported_media_type: ...`)'),
      '429': plain(
        'Too many hub requests from this client, or a cap reached: subscriptions and pending requests per callback host, per requesting client, or in all (`too_many_requests: ...`)',
      ),
      '503': { ...plain('The store, which the hub\'s rate limit and subscriptions need, can not be reached (`store_unavailable: ...`); retry after Retry-After seconds'), headers: RETRY_AFTER },
    },
    handler: async (req, reply, { baseUrl, hub }) => {
      const answer = await handleHubRequest({ contentType: req.headers['content-type'], form: req.body, client: req.ip, log: req.log }, { baseUrl, hub });
      return plainText(reply, answer.status, answer.text);
    },
  },
  {
    method: 'GET',
    path: '/api/reviews/search',
    operationId: 'searchReviews',
    tag: 'Reviews',
    summary: 'Search reviews',
    description:
      'Filters given together all apply. `query` is a case-insensitive substring of the review text; `mentions_technician` matches a technician name or alias as a whole word; `mentions_service` matches a service id, label or alias. A technician not on the roster, or a service not in the profile, is matched as a whole word as given, and the answer then carries `notices` naming what the profile knows (still 200). Results come in the order `sort` names (newest first by default; ties broken by review id). `matched` counts every match, `returned` what `limit` let through. For the next page pass `next_cursor` as `cursor` with the same filters and sort; it is null on the last page. Paging this way returns every match exactly once while the data does not change; once it changes (an import), an old cursor gets 400 with issue code `invalid_cursor`, as does a garbled or altered one, and the client starts again from the first page. The MCP tool search_reviews takes the same arguments.',
    conditional: true,
    responses: { '200': { description: 'Matching reviews', schema: SearchResultSchema }, '400': validationError },
    // Not memoised: the indexed search costs less than keeping its answers would in garbage collection.
    ...validated({ query: SearchQuerySchema }, ({ query }, snap, baseUrl) => snap.searchAnswer(searchReviews(snap.index, query), baseUrl)),
  },
  {
    method: 'GET',
    path: '/api/reviews/since/{date}',
    operationId: 'getReviewsSince',
    tag: 'Reviews',
    summary: 'Reviews on or after a date',
    description:
      'Every review dated on or after `date`, newest first. Poll it with If-None-Match to fetch only when something changed (a 304 costs nothing against the limits). An answer counts its uncompressed size against the client\'s kilobytes per minute (RATE_LIMIT_COST_KB); an early date answers the whole dataset, so fetch /reviews.json once and then poll from the last date you have. It takes no query parameters: any is refused (400, issue code `unknown_parameter`), as search refuses those it does not know.',
    conditional: true,
    responses: { '200': { description: 'Reviews since the date', schema: SinceResultSchema }, '400': validationError },
    ...validated({ params: SincePathSchema, query: SinceQuerySchema }, ({ params }, snap, baseUrl) => snap.since(params.date, baseUrl)),
  },
  reviewPageOperation,
  widgetScriptOperation,
  {
    method: 'GET',
    path: '/embed.json',
    operationId: 'getWidgetData',
    tag: 'Widget',
    summary: 'What the review widget shows',
    description:
      'The data behind `<reviewcast-reviews>` and /embed, with the widget\'s own parameter names (a flag given bare, `&with-text`, is true). `rating` holds the true figures of every review in scope (all, or one source, technician or service); min-rating and with-text only narrow `reviews` (carousel and list) and `matched`. For the list\'s next page pass `next_cursor` as `cursor` with the same other parameters; after the data changes an old cursor gets 400 with issue code `invalid_cursor`. Poll it with If-None-Match, no more often than Cache-Control max-age allows (the widget\'s `live` attribute does).',
    conditional: true,
    responses: { '200': { description: 'The widget data', schema: WidgetDataSchema }, '400': validationError },
    ...validated({ query: WidgetDataQuerySchema }, ({ query }, snap, baseUrl) => snap.memo(`embed:${JSON.stringify(query)}`, () => snap.answer(widgetData(snap, query, baseUrl)))),
  },
  embedPageOperation,
  {
    method: 'POST',
    path: MCP_PATH,
    operationId: 'mcp',
    tag: 'MCP',
    summary: 'MCP endpoint (streamable HTTP, JSON responses)',
    description:
      `Model Context Protocol over streamable HTTP (protocol 2025-06-18 and the other versions of the MCP SDK). One JSON-RPC 2.0 message per POST; Accept must list application/json and text/event-stream. The initialize response carries Mcp-Session-Id; send it on every later request (400 without, 404 when unknown, expired or deleted). Send MCP-Protocol-Version after initialize (400 when unsupported). A browser Origin other than the service's own (or MCP_ALLOWED_ORIGINS) gets 403. Read-only tools: ${TOOLS.map((t) => t.name).join(', ')}; prompts summarise_aspect, compare_technicians, changes_since and draft_reply; completion/complete for their arguments and review://{id}; resources/subscribe and unsubscribe (notifications go out on GET /mcp). Unknown tool: JSON-RPC error -32602; protocol params that do not fit the method (resources/read without uri, tools/call without name ...): -32602 with a one-line message; unknown method -32601; unparseable body -32700 with HTTP 400; an empty batch -32600 with HTTP 400; an initialize beyond MCP_MAX_SESSIONS live sessions: 503 with Retry-After; a request while the store, where sessions are checked, can not be reached: 503 with Retry-After (-32000, data.error store_unavailable); invalid arguments (checked as JSON, never coerced: true is not 1, "5" is not 5): a result with isError naming each argument and what to fix (a missing one: is required); an unknown technician, service or aspect: a result with isError and the valid choices; an invalid cursor: a result with isError saying to start again.`,
    rawBody: true,
    ownCors: true,
    requestBody: {
      contentType: 'application/json',
      description: 'A JSON-RPC 2.0 request or notification',
      schema: {
        type: 'object',
        required: ['jsonrpc', 'method'],
        properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } },
        example: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: { rating: 5, limit: 3 } } },
      },
    },
    responses: {
      '200': {
        description: 'JSON-RPC response; on initialize, the Mcp-Session-Id header',
        contentType: 'application/json',
        headers: { 'Mcp-Session-Id': { description: 'Session id (only on initialize)', schema: { type: 'string' } } },
      },
      '202': { description: 'Notification accepted; no body' },
      '400': { description: 'Missing Mcp-Session-Id, unsupported MCP-Protocol-Version, unparseable JSON (-32700), or an empty batch (-32600)', contentType: 'application/json' },
      '403': originRefused,
      '404': { description: 'Session unknown, expired or deleted', contentType: 'application/json' },
      '406': { description: 'Accept does not list application/json and text/event-stream', contentType: 'application/json' },
      '415': { description: 'Content-Type is not application/json', contentType: 'application/json' },
      '503': {
        description: `initialize while MCP_MAX_SESSIONS sessions are live (-32000), or ${STORE_UNREACHABLE_MCP}; retry after Retry-After seconds`,
        contentType: 'application/json',
        headers: RETRY_AFTER,
      },
    },
    handler: mcpHandler(handleMcpPost),
  },
  {
    method: 'DELETE',
    path: MCP_PATH,
    operationId: 'mcpEndSession',
    tag: 'MCP',
    summary: 'End an MCP session',
    description: 'Ends the session named in Mcp-Session-Id on every replica; later requests with it get 404. A body, if any, is ignored.',
    rawBody: true,
    ownCors: true,
    responses: {
      '204': { description: 'Session ended' },
      '400': { description: 'No Mcp-Session-Id header', contentType: 'application/json' },
      '403': originRefused,
      '404': { description: 'No such live session', contentType: 'application/json' },
      '503': mcpStoreUnavailable,
    },
    handler: mcpHandler(handleMcpDelete),
  },
  {
    method: 'GET',
    path: MCP_PATH,
    operationId: 'mcpStream',
    tag: 'MCP',
    summary: 'Server-to-client stream of a session (Server-Sent Events)',
    description:
      'Opens the session\'s stream of notifications: notifications/resources/updated for each resource the session subscribed to (resources/subscribe) when an import changes it, and notifications/resources/list_changed when the set of reviews changes, on whichever replica the change was made. Requests are answered on their POST, never here. One stream per session at a time (409 for a second); a comment line every 25 s keeps it open. Subscriptions are held by the replica that took them, so a load balancer should keep a session on one replica.',
    rawBody: true,
    ownCors: true,
    responses: {
      '200': { description: 'The event stream; each event is one JSON-RPC notification', contentType: 'text/event-stream' },
      '400': { description: 'No Mcp-Session-Id, or an unsupported MCP-Protocol-Version', contentType: 'application/json' },
      '403': originRefused,
      '404': { description: 'Session unknown, expired or deleted', contentType: 'application/json' },
      '406': { description: 'Accept does not list text/event-stream', contentType: 'application/json' },
      '409': { description: 'The session already has a stream open', contentType: 'application/json' },
      '503': mcpStoreUnavailable,
    },
    handler: mcpHandler(handleMcpGet),
  },
  {
    method: 'GET',
    path: '/.well-known/openapi.json',
    operationId: 'getOpenApi',
    tag: 'Service',
    summary: 'This API description (OpenAPI 3.1.0)',
    description: 'Generated from the same schemas the endpoints validate with.',
    conditional: true,
    responses: { '200': { description: 'OpenAPI 3.1.0 document', contentType: 'application/json' } },
    document: ({ live, baseUrl }) => {
      const snap = live.current();
      // The document does not depend on the data, but caching it per snapshot keeps one code path.
      return { rep: snap.memo('openapi', () => snap.json(buildOpenApi(operations, baseUrl))), opts: { cacheControl: 'public, max-age=300' } };
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'Service',
    ownCors: true,
    summary: 'Prometheus metrics',
    description:
      'Prometheus text format: requests by route template, method and status (`reviewcast_http_requests_total`), latency histograms (`reviewcast_http_request_duration_seconds`), requests refused by the rate limit, hub deliveries and verifications by outcome, the data revision and review count, the release and build this process runs (`reviewcast_build_info{version,build}`), the body caches (`reviewcast_cache_bytes`, `reviewcast_cache_max_bytes`, `reviewcast_cache_entries` by cache), compressions pending, requests refused by the cost limit (`reviewcast_http_cost_limited_total`), reviews analysed for the insights (`reviewcast_insights_analysed_reviews_total`: none after a restart on a revision whose insights the store keeps), and process figures (memory, CPU, event-loop delay: `reviewcast_nodejs_eventloop_lag_p99_seconds` and the rest). Per process: scrape every replica.',
    responses: { '200': { description: 'Metrics in the Prometheus text format 0.0.4', contentType: 'text/plain; version=0.0.4; charset=utf-8' } },
    handler: async (_req, reply, { metrics }) =>
      reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(await metrics.registry.metrics()),
  },
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Service',
    ownCors: true,
    summary: 'Health and data revision',
    description:
      'Answers 200 with the revision of the data it serves (`revision`, `reviews`, `updated_at`) and what it runs (`version`, the release; `build`, a digest of this build\'s code, the same on every replica of one build) while the service runs and its store answers a read; 503 with error code `store_unavailable` when the store can not (a corrupt, missing or unreachable database); the replica goes on serving the data it holds from memory meanwhile, so monitor it rather than take the replica out on it (docs/replicas.md, Health checks).',
    responses: {
      '200': { description: 'Healthy', contentType: 'application/json' },
      '503': { description: 'The store can not answer a read (`store_unavailable`)', schema: ErrorBodySchema },
    },
    handler: async (req, reply, { live, health }) => {
      try {
        await withDeadline(health.checkHealth(), HEALTH_DEADLINE_MS);
      } catch (err) {
        req.log.error({ err }, 'health check failed: the store can not answer a read');
        return sendError(reply, 'store_unavailable', 'The store can not answer a read; see the service log');
      }
      const snap = live.current();
      return reply
        .header('cache-control', 'no-store')
        .send({ status: 'ok', revision: snap.revision.revision, reviews: snap.index.reviews.length, updated_at: snap.revision.updated_at, version: VERSION, build: releaseBuild() });
    },
  },
];
