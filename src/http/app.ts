/** The fastify app built from the route table: routing, body parsers, CORS preflight, rate limit and error answers. */
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { STATUS_CODES, createServer } from 'node:http';
import Fastify, { LogController, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { sharedRateLimitStore } from './shared-rate-limit.js';
import { CostLimit } from './cost-limit.js';
import type { Logger } from 'pino';
import { errorBody, plainTextError, sendError, sendStoreUnavailable } from './errors.js';
import { parseForm, parseQuery } from './form.js';
import type { HttpConfig } from '../config.js';
import { buildFastPath } from './fast-path.js';
import { clientAddress, Gate, setRouteLabel } from './gate.js';
import { HUB_BODY_BYTES, MAX_HEADER_BYTES, MAX_URL_BYTES, MCP_BODY_BYTES } from '../limits.js';
import { serverOptions } from './server-options.js';
import { errorStyles, fastifyUrl, operationHandler, pathPattern, routedPath, type Operation, type ServiceContext } from './operation.js';
import { storeUnreachable } from './store-outage.js';
import { MCP_PATH, grantedOrigin } from '../mcp/mcp-route.js';

/**
 * A route with its own limit (the hub) is under two: the service-wide one (the gate's RateLimit
 * header) and its own (@fastify/rate-limit's X-RateLimit-*). An answer must not say both
 * "remaining 1199" and 429: RateLimit-Policy lists both policies, RateLimit states the one
 * nearer exhaustion, and the X- headers go.
 */
function oneRateLimitStory(http: HttpConfig) {
  const servicePolicy = `${http.rateLimitPerMinute};w=60`;
  return (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const limit = reply.getHeader('x-ratelimit-limit');
    const remaining = reply.getHeader('x-ratelimit-remaining');
    const reset = reply.getHeader('x-ratelimit-reset');
    reply.removeHeader('x-ratelimit-limit').removeHeader('x-ratelimit-remaining').removeHeader('x-ratelimit-reset');
    if (limit !== undefined && remaining !== undefined) {
      reply.header('ratelimit-policy', `${servicePolicy}, ${String(limit)};w=60`);
      const service = /remaining=(\d+)/.exec(String(reply.getHeader('ratelimit') ?? ''));
      if (service === null || Number(remaining) <= Number(service[1])) reply.header('ratelimit', `limit=${String(limit)}, remaining=${String(remaining)}, reset=${String(reset)}`);
    }
    done(null, payload);
  };
}

/** Builds the fastify app from the route table: routing, CORS preflight, 404/405 and error answers. */
export async function buildApp(operations: readonly Operation[], ctx: ServiceContext, logger: Logger, trustProxy: boolean, http: HttpConfig) {
  const fastPath = buildFastPath(operations, ctx, logger);
  const errorStyle = errorStyles(operations);
  const cost = new CostLimit(ctx.rateLimits, ctx.cost.rateLimitCostKb, (err) => {
    // A store out of reach is told once, with the requests it refuses, not at every count.
    if (storeUnreachable(err)) ctx.outage.report(err);
    else logger.warn({ err }, 'counting the cost of answers in the store failed');
  });
  const gate = new Gate(http, trustProxy, ctx.metrics, errorStyle, cost);
  const app = Fastify({
    serverFactory: (handler) => {
      const server = createServer(serverOptions(http), (req, res) => {
        gate.serve(req, res, fastPath, handler);
      });
      return server;
    },
    loggerInstance: logger,
    // Per-request lines are logged at debug by the onResponse hook below, not at info.
    logController: new LogController({ disableRequestLogging: true }),
    // Trailing slashes and duplicate slashes are the same resource.
    // A path parameter may be as long as the request target: a long one is then a validation error (400), not a 414 from the router.
    // Query strings are decoded strictly: a parameter that is not valid percent-encoded UTF-8 is refused, not read as its raw text.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: MAX_URL_BYTES, querystringParser: parseQuery },
    bodyLimit: MCP_BODY_BYTES,
    return503OnClosing: true,
    // Requests the router can not take (a malformed path) get the same error bodies as the rest.
    frameworkErrors: (err, req, reply) => {
      const status = err.statusCode ?? 400;
      const style = errorStyle(req.url);
      if (style.plainText) return plainTextError(reply, status, err.message);
      return sendError(reply, status === 414 ? 'uri_too_long' : 'bad_request', err.message, { headers: style.cors });
    },
    // What Node refuses before any request exists (headers over the limit, a malformed request line): our error body, then close.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return socket.destroy(err);
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify(
        status === 431
          ? errorBody('headers_too_large', `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes`)
          : errorBody('bad_request', status === 408 ? 'The request took too long to arrive' : 'Malformed HTTP request'),
      );
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
    // One proxy hop: req.ip (in logs) is the last X-Forwarded-For entry, the gate's clientAddress rule.
    trustProxy: trustProxy ? (_address: string, hop: number) => hop === 0 : false,
  });

  app.addHook('onRequest', (req, _reply, done) => {
    setRouteLabel(req.raw, req.routeOptions.url ?? 'unmatched');
    done();
  });

  app.addHook('onResponse', (req, reply, done) => {
    req.log.debug({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });

  const allowed = new Map<string, Set<string>>();
  for (const op of operations) {
    const methods = allowed.get(op.path) ?? new Set<string>();
    methods.add(op.method);
    if (op.method === 'GET') methods.add('HEAD');
    allowed.set(op.path, methods);
  }
  const patterns = [...allowed].map(([path, methods]) => ({ re: pathPattern(path), methods: [...methods, 'OPTIONS'] }));
  // Answers a request no route took: 404, or 405 with Allow when the path exists, in the path's error style (the hub's is plain text).
  const unrouted = (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = routedPath(req.url);
    const hit = patterns.find((p) => p.re.test(path));
    const style = errorStyle(req.url);
    const headers = style.cors;
    if (hit) {
      reply.header('allow', hit.methods.join(', '));
      const message = `${req.method} is not allowed here; use ${hit.methods.join(', ')}`;
      if (style.plainText) return plainTextError(reply.headers(headers), 405, message);
      return sendError(reply, 'method_not_allowed', message, { headers });
    }
    return sendError(reply, 'not_found', `No resource at ${path}`, { headers });
  };
  // Set before any scope is registered, so the raw-body scope (MCP) inherits it.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const style = errorStyle(req.url);
    // The store out of reach (the hub's rate limit and subscriptions need it) is no fault of the service: 503, logged once.
    // A client that went away while its body was read raises a socket error too, but of its own socket: not the store's.
    if (storeUnreachable(err) && !req.raw.destroyed && !(err.code === 'ECONNRESET' && err.message === 'aborted')) {
      ctx.outage.report(err);
      return sendStoreUnavailable(reply, style);
    }
    const status = err.statusCode ?? 500;
    // A body that fails to parse on a path/method with no route: the missing route is the answer, not the body.
    if (req.routeOptions.url === undefined && status < 500) return unrouted(req, reply);
    if (style.plainText && status < 500) {
      const text =
        status === 415 ? 'Content-Type must be application/x-www-form-urlencoded' : status === 429 ? 'Too many requests; retry later' : err.message;
      return plainTextError(reply, status, text);
    }
    const headers = style.cors;
    if (status === 429) return sendError(reply, 'too_many_requests', err.message, { headers });
    if (status === 415) return sendError(reply, 'unsupported_media_type', err.message, { headers });
    if (status === 413) return sendError(reply, 'payload_too_large', err.message, { headers });
    if (status >= 400 && status < 500) return sendError(reply, 'bad_request', err.message, { headers });
    req.log.error({ err, url: req.url }, 'request failed');
    return sendError(reply, 'internal_error', 'Internal error; it has been logged', { headers });
  });

  await app.register(formbody, { bodyLimit: HUB_BODY_BYTES, parser: parseForm });
  await app.register(rateLimit, {
    global: false,
    store: sharedRateLimitStore(ctx.rateLimits),
    // The same client as the service-wide limit counts.
    keyGenerator: (req) => clientAddress(req.raw, trustProxy),
  });

  const route = (scope: typeof app, op: Operation) => {
    const handler = operationHandler(op);
    scope.route({
      method: op.method,
      url: fastifyUrl(op.path),
      handler: (req, reply) => handler(req, reply, ctx),
      ...(op.rateLimited ? { config: { rateLimit: { max: ctx.hub.config.rateLimitPerMinute, timeWindow: 60_000 } }, onSend: oneRateLimitStory(http) } : {}),
    });
  };
  // Raw-body routes live in their own scope, where every body arrives as a string.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    for (const op of operations) if (op.rawBody) route(scope as unknown as typeof app, op);
  });

  for (const op of operations) if (!op.rawBody) route(app, op);

  // CORS preflight: browsers send it before a GET carrying If-None-Match, or an MCP POST. /mcp
  // grants only an Origin its requests are admitted from, so a refused page's browser stops at the
  // preflight (for a JSON POST, a DELETE, a session header); every other path answers any origin.
  for (const [path, methods] of allowed) {
    // Read at each request: the base URL is known only once the server listens (port 0).
    const origin = (req: FastifyRequest): Record<string, string> =>
      path === MCP_PATH
        ? { ...grantedOrigin(req, { baseUrl: ctx.baseUrl, config: ctx.mcp.config }), vary: 'Origin' }
        : { 'access-control-allow-origin': '*' };
    app.options(fastifyUrl(path), (req, reply) =>
      reply
        .code(204)
        .headers(origin(req))
        .header('access-control-allow-methods', [...methods, 'OPTIONS'].join(', '))
        .header('access-control-allow-headers', 'If-None-Match, If-Modified-Since, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID')
        .header('access-control-max-age', '86400')
        .send(),
    );
  }

  app.setNotFoundHandler((req, reply) => unrouted(req, reply));
  app.addHook('onClose', (_instance, done) => {
    cost.close();
    done();
  });

  return app;
}
