/** The gate every request passes first: URL length limit, per-client rate limits (requests, and kilobytes of answers) and request metrics. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpConfig } from '../config.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ErrorBody } from '../core/schema/error.js';
import { errorBody, type ErrorStyle } from './errors.js';
import type { CostLimit } from './cost-limit.js';
import { MAX_URL_BYTES } from '../limits.js';

const WINDOW_MS = 60_000;

/** Set by fastify's onRequest hook: the route template a request matched, for metrics. */
const ROUTE_LABEL = Symbol('routeLabel');
/** The client the gate counted the request against. */
const CLIENT = Symbol('client');
/** What the answer costs against the client's budget, when it is not the body's length (see setAnswerCost). */
const COST = Symbol('cost');
type Labelled = IncomingMessage & { [ROUTE_LABEL]?: string; [CLIENT]?: string; [COST]?: number };

export function setRouteLabel(req: IncomingMessage, route: string): void {
  (req as Labelled)[ROUTE_LABEL] = route;
}

/**
 * The bytes a request is charged for, in place of the body it was sent: an answer built or
 * compressed for it costs its whole identity size, whatever coding (or HEAD) it went out in.
 */
export function setAnswerCost(req: IncomingMessage, bytes: number): void {
  (req as Labelled)[COST] = bytes;
}

/**
 * The client a request counts against: the peer address, or behind one trusted proxy the
 * last X-Forwarded-For entry (the address the proxy saw; earlier entries are the client's own claims).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  if (typeof forwarded === 'string' && forwarded.trim() !== '') return forwarded.split(',').at(-1)!.trim();
  return req.socket.remoteAddress ?? 'unknown';
}

/** The JSON error body with the endpoint's CORS headers, or for an endpoint that speaks plain text (the hub, WebSub §5.1.2) its message. */
function refuse(res: ServerResponse, style: ErrorStyle, status: number, body: ErrorBody, headers: Record<string, string> = {}): void {
  const text = style.plainText ? `${body.error}: ${body.message}` : JSON.stringify(body);
  const type = style.plainText ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(status, { ...style.cors, 'content-type': type, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** The RateLimit headers of one answer. */
export type LimitHeaders = Record<'ratelimit-policy' | 'ratelimit', string>;

/** Answers a request synchronously, with the gate's headers among its own, or declines (false). */
export type AnswerNow = (req: IncomingMessage, res: ServerResponse, headers: LimitHeaders) => boolean;

/**
 * What every request passes before the fast path and fastify: the URL length limit, the
 * per-client rate limit (a fixed one-minute window, answered 429 with Retry-After and the
 * RateLimit headers of draft-ietf-httpapi-ratelimit-headers), and request metrics. It is in
 * front of the router because the fast path, which bypasses fastify, must be limited too.
 * Request counters are per process (with N replicas a client gets up to N times the limit);
 * the cost of answers is counted in the store (CostLimit), so replicas share that budget.
 */
export class Gate {
  private counts = new Map<string, number>();
  private windowStart = Date.now();
  private readonly policy: string;
  /** The RateLimit header up to the remaining count, the same for every request. */
  private readonly limitPrefix: string;

  constructor(
    private readonly config: HttpConfig,
    private readonly trustProxy: boolean,
    private readonly metrics: Metrics,
    /** How a refusal is answered on a request target: plain text or JSON, and its CORS headers. */
    private readonly errorStyle: (url: string | undefined) => ErrorStyle,
    /** The cost-weighted limit (RATE_LIMIT_COST_KB), shared by replicas through the store. */
    private readonly cost: CostLimit,
  ) {
    this.policy = `${config.rateLimitPerMinute};w=${WINDOW_MS / 1000}`;
    this.limitPrefix = `limit=${config.rateLimitPerMinute}, remaining=`;
  }

  /**
   * Every request: the gate's own refusals first, then `answerNow` (the fast path), then
   * `answerLater` (fastify). Two habits keep the hot path cheap: the RateLimit headers go into
   * the fast path's one writeHead rather than through setHeader, and an answer already finished
   * is counted at once rather than through a 'finish' listener. Together they were worth about
   * a third more 304s per second.
   */
  serve(req: IncomingMessage, res: ServerResponse, answerNow: AnswerNow, answerLater: (req: IncomingMessage, res: ServerResponse) => void): void {
    const started = performance.now();
    const limit = this.admit(req, res);
    const answered = limit === null || answerNow(req, res, limit);
    // A body the socket took whole is finished already; a large one is timed until all of it has gone.
    if (answered && res.writableFinished) return this.record(req, res, started);
    res.once('finish', () => this.record(req, res, started));
    if (answered) return;
    res.setHeader('ratelimit-policy', limit['ratelimit-policy']);
    res.setHeader('ratelimit', limit.ratelimit);
    answerLater(req, res);
  }

  private record(req: IncomingMessage, res: ServerResponse, started: number): void {
    const r = req as Labelled;
    this.metrics.request(r[ROUTE_LABEL] ?? 'unmatched', req.method ?? '', res.statusCode, (performance.now() - started) / 1000);
    if (r[CLIENT] === undefined) return;
    const sent = req.method === 'HEAD' ? 0 : Number(res.getHeader('content-length') ?? 0);
    this.cost.charge(r[CLIENT], r[COST] ?? sent);
  }

  /** Null when the gate answered the request itself (414, 429); otherwise the RateLimit headers for its answer. */
  private admit(req: IncomingMessage, res: ServerResponse): LimitHeaders | null {
    if ((req.url ?? '').length > MAX_URL_BYTES) {
      setRouteLabel(req, 'refused');
      refuse(res, this.errorStyle(req.url), 414, errorBody('uri_too_long', `The request target is longer than ${MAX_URL_BYTES} bytes`));
      return null;
    }
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      // A new window: forgetting every client at once keeps the map as small as one minute's clients.
      this.counts = new Map();
      this.windowStart = now;
    }
    const client = clientAddress(req, this.trustProxy);
    (req as Labelled)[CLIENT] = client;
    const count = (this.counts.get(client) ?? 0) + 1;
    this.counts.set(client, count);
    const limit = this.config.rateLimitPerMinute;
    const reset = Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000));
    const headers: LimitHeaders = { 'ratelimit-policy': this.policy, ratelimit: `${this.limitPrefix}${Math.max(0, limit - count)}, reset=${reset}` };
    if (count > limit) {
      setRouteLabel(req, 'refused');
      refuse(res, this.errorStyle(req.url), 429, errorBody('too_many_requests', `More than ${limit} requests in a minute from this client; retry in ${reset} s`), { ...headers, 'retry-after': String(reset) });
      return null;
    }
    const costlyUntil = this.cost.blockedUntil(client, now);
    if (costlyUntil > 0) {
      setRouteLabel(req, 'refused');
      this.metrics.costLimited();
      const wait = Math.max(1, Math.ceil((costlyUntil - now) / 1000));
      const message = `More than ${this.cost.limitKb.toLocaleString('en')} KB of answers in a minute from this client; retry in ${wait} s`;
      refuse(res, this.errorStyle(req.url), 429, errorBody('too_many_requests', message), { ...headers, 'retry-after': String(wait) });
      return null;
    }
    return headers;
  }
}
