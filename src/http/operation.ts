/** What a route entry (Operation) is, and the service context its handler gets. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendRepresentation, type Served } from './conditional.js';
import type { z } from 'zod';
import type { LiveData } from '../snapshot/live-data.js';
import type { Hub } from '../websub/hub.js';
import type { CostConfig, HttpConfig, McpConfig } from '../config.js';
import type { McpSessions } from '../mcp/sessions.js';
import type { McpStreams } from '../mcp/streams.js';
import type { Metrics } from '../metrics/metrics.js';
import type { HealthStore, RateLimitStore } from '../store/store.js';
import { PUBLIC_CORS } from './cors.js';
import type { ErrorStyle } from './errors.js';
import type { StoreOutage } from './store-outage.js';

export interface ServiceContext {
  live: LiveData;
  /** Public origin, no trailing slash. */
  baseUrl: string;
  hub: Hub;
  mcp: { sessions: McpSessions; streams: McpStreams; config: McpConfig; version: string };
  metrics: Metrics;
  http: HttpConfig;
  /** The counters behind the hub's per-client limit and the cost limit, shared by every replica. */
  rateLimits: RateLimitStore;
  /** Cache budgets, the cost-weighted rate limit, compression. */
  cost: CostConfig;
  /** Whether the store answers a read (/healthz). */
  health: HealthStore;
  /** Where a request that failed because the store can not be reached is told (logged once, not per request). */
  outage: StoreOutage;
}

export interface ResponseDoc {
  description: string;
  /** A registered zod schema (it has a meta id) or a plain JSON schema for non-JSON bodies. */
  schema?: z.ZodType;
  contentType?: string;
  example?: unknown;
  /** The router may give this status first, with the JSON Error body (a path that is not valid percent-encoding). */
  routerError?: boolean;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

export type Handler = (req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext) => FastifyReply | Promise<FastifyReply>;

/** What an endpoint is, apart from how it answers. */
interface OperationDoc {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI-style path, e.g. /api/reviews/since/{date}. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** Conditional GET applies: documents ETag/Last-Modified and 304. */
  conditional?: boolean;
  /** A WebSub topic: documents the Link header. */
  topic?: boolean;
  /** Per-client rate limit (hub requests). */
  rateLimited?: boolean;
  /** Errors are answered in plain text, including those raised before the handler (the hub, WebSub §5.1.2); JSON otherwise. */
  plainTextErrors?: boolean;
  /**
   * Its answers, errors included, do not carry the public API's CORS headers (`Access-Control-Allow-Origin: *`):
   * MCP admits browser origins itself; the hub, health and metrics are not for browsers. Every
   * other endpoint's errors carry the same CORS headers as its answers, as do 404s.
   */
  ownCors?: boolean;
  /** A page or asset for people, left out of the OpenAPI document. */
  hidden?: boolean;
  /** The handler gets the body as an unparsed string, whatever its Content-Type (MCP parses and answers JSON-RPC itself). */
  rawBody?: boolean;
  requestBody?: { contentType: string; description: string; schema?: Record<string, unknown> };
  responses: Record<string, ResponseDoc>;
}

/**
 * One endpoint: its documentation, its validation schemas and how it answers, in one place.
 * A `document` endpoint answers a GET without parameters with a body pre-built per revision;
 * such endpoints are also served by the fast path, ahead of the router.
 */
export type Operation = OperationDoc & ({ handler: Handler; document?: undefined } | { document: (ctx: ServiceContext) => Served; handler?: undefined });

/** The fastify handler of an operation. */
export function operationHandler(op: Operation): Handler {
  if (op.handler) return op.handler;
  const document = op.document;
  return (req, reply, ctx) => {
    const served = document(ctx);
    return sendRepresentation(req, reply, served.rep, served.opts);
  };
}

/** A regular expression matching an OpenAPI-style path, each {param} one segment. */
export function pathPattern(path: string): RegExp {
  // Braces are left unescaped by the first replace, so each {param} is still plain text for the second.
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** The path of a request target as the router reads it: no query, no repeated or trailing slashes. */
export function routedPath(url: string | undefined): string {
  return (url ?? '').split('?')[0]!.replace(/\/{2,}/g, '/').replace(/\/+$/, '') || '/';
}

/** How errors are answered on each request target, from the route table's plainTextErrors and ownCors. */
export function errorStyles(operations: readonly Operation[]): (url: string | undefined) => ErrorStyle {
  const plain = operations.filter((op) => op.plainTextErrors).map((op) => pathPattern(op.path));
  const own = operations.filter((op) => op.ownCors).map((op) => pathPattern(op.path));
  return (url) => {
    const path = routedPath(url);
    return { plainText: plain.some((re) => re.test(path)), cors: own.some((re) => re.test(path)) ? {} : PUBLIC_CORS };
  };
}

/** fastify's route syntax for an OpenAPI path. */
export function fastifyUrl(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
