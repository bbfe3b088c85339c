import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../http/route-table.js';
import { buildMcpServer } from './mcp-server.js';

export const MCP_PATH = '/mcp';

/** JSON-RPC error bodies for answers given before a request reaches the MCP server. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * DNS-rebinding protection (MCP transport spec): a browser page on another origin must not
 * reach this server through the user's browser. Requests without Origin (non-browser clients)
 * pass; a present Origin must be the service's own or a configured one.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function originAllowed(req: FastifyRequest, ctx: ServiceContext): boolean {
  const base = new URL(ctx.baseUrl);
  // Served on loopback, the service must be reached by a loopback name: a rebinding attack arrives with the attacker's host name.
  if (LOOPBACK.has(base.hostname) && req.headers.host !== undefined) {
    const host = URL.canParse(`http://${req.headers.host}`) ? new URL(`http://${req.headers.host}`).hostname : '';
    if (!LOOPBACK.has(host)) return false;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (origin === base.origin || ctx.mcp.config.allowedOrigins.includes(origin)) return true;
  // localhost, 127.0.0.1 and [::1] are one machine: any of them on the service's own port is its own origin.
  if (!LOOPBACK.has(base.hostname) || !URL.canParse(origin)) return false;
  const o = new URL(origin);
  return LOOPBACK.has(o.hostname) && o.protocol === base.protocol && o.port === base.port;
}

function cors(req: FastifyRequest, reply: FastifyReply): void {
  if (req.headers.origin) reply.header('access-control-allow-origin', req.headers.origin).header('vary', 'Origin');
  reply.header('access-control-expose-headers', 'Mcp-Session-Id, MCP-Protocol-Version');
}

/** The body as JSON, or undefined when it is not JSON (the transport then answers -32700). */
function parseBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function isInitialize(msg: unknown): boolean {
  const list = Array.isArray(msg) ? msg : [msg];
  return list.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
}

/** Checks Origin and (unless initializing) the session; answers and returns false when the request must stop here. */
async function admit(req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext, needSession: boolean): Promise<boolean> {
  cors(req, reply);
  if (!originAllowed(req, ctx)) {
    rpcError(reply, 403, -32000, `Forbidden: Origin ${req.headers.origin ?? '(none)'} or Host ${req.headers.host ?? '(none)'} is not allowed`);
    return false;
  }
  if (!needSession) return true;
  const token = req.headers['mcp-session-id'];
  if (typeof token !== 'string' || token === '') {
    rpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required; send initialize first');
    return false;
  }
  const state = await ctx.mcp.sessions.check(token);
  if (state !== 'ok') {
    const why = { invalid: 'unknown', expired: 'expired', ended: 'ended', idle: 'expired after inactivity' }[state];
    rpcError(reply, 404, -32001, `Session not found (${why}); send initialize to start a new one`);
    return false;
  }
  return true;
}

/** POST /mcp: one JSON-RPC message, answered as JSON through the SDK's streamable HTTP transport. */
export async function handleMcpPost(req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext): Promise<FastifyReply> {
  const body = typeof req.body === 'string' ? req.body : '';
  // Transport-level checks come before the session check, so a wrong request is told what is wrong with it.
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    cors(req, reply);
    return rpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    cors(req, reply);
    return rpcError(reply, 406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  }
  const message = parseBody(body);
  const initializing = isInitialize(message);
  if (!(await admit(req, reply, ctx, !initializing))) return reply;

  const server = buildMcpServer(ctx.live.current(), ctx.baseUrl, ctx.mcp.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    // Parsed once here and handed over; only a body that is not JSON goes to the transport raw, for its -32700 answer.
    const request = new Request(`${ctx.baseUrl}${MCP_PATH}`, { method: 'POST', headers, body: message === undefined ? body : undefined });
    const response = await transport.handleRequest(request, { parsedBody: message });
    if (initializing && response.status === 200) reply.header('mcp-session-id', await ctx.mcp.sessions.mint());
    response.headers.forEach((value, key) => {
      reply.header(key, value);
    });
    return reply.code(response.status).send(Buffer.from(await response.arrayBuffer()));
  } finally {
    await transport.close();
    await server.close();
  }
}

/** DELETE /mcp ends the session named in Mcp-Session-Id, on every replica. */
export async function handleMcpDelete(req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext): Promise<FastifyReply> {
  if (!(await admit(req, reply, ctx, false))) return reply;
  const token = req.headers['mcp-session-id'];
  if (typeof token !== 'string' || token === '') return rpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  if (!(await ctx.mcp.sessions.end(token))) return rpcError(reply, 404, -32001, 'Session not found');
  return reply.code(204).send();
}

/** GET /mcp would open a server-to-client stream; this server sends nothing unasked, so it says so at once. */
export async function handleMcpGet(req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext): Promise<FastifyReply> {
  if (!(await admit(req, reply, ctx, false))) return reply;
  return reply.code(405).header('allow', 'POST, DELETE').header('content-type', 'application/json').send(
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method Not Allowed: this server offers no server-initiated stream; POST requests instead' }, id: null }),
  );
}
