/** The MCP endpoint: Origin and session checks, then one JSON-RPC message through the SDK's transport, over a plain request and answer. */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { McpConfig } from '../config.js';
import type { LiveData } from '../snapshot/live-data.js';
import { buildMcpServer } from './mcp-server.js';
import type { McpSessions } from './sessions.js';
import { Splices } from './splice.js';

export const MCP_PATH = '/mcp';

/** What the endpoint reads of a request: its headers (lower-case names) and its body, unparsed. */
export interface McpRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** What it answers. */
export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What it works with. */
export interface McpEndpoint {
  live: LiveData;
  /** Public origin, no trailing slash. */
  baseUrl: string;
  sessions: McpSessions;
  config: McpConfig;
  version: string;
}

/** JSON-RPC error bodies for answers given before a request reaches the MCP server. */
function rpcError(headers: Record<string, string>, status: number, code: number, message: string): McpAnswer {
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }) };
}

/**
 * DNS-rebinding protection (MCP transport spec): a browser page on another origin must not
 * reach this server through the user's browser. Requests without Origin (non-browser clients)
 * pass; a present Origin must be the service's own or a configured one.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function originAllowed(req: McpRequest, ctx: McpEndpoint): boolean {
  const base = new URL(ctx.baseUrl);
  // Served on loopback, the service must be reached by a loopback name: a rebinding attack arrives with the attacker's host name.
  if (LOOPBACK.has(base.hostname) && req.headers.host !== undefined) {
    const host = URL.canParse(`http://${req.headers.host}`) ? new URL(`http://${req.headers.host}`).hostname : '';
    if (!LOOPBACK.has(host)) return false;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (origin === base.origin || ctx.config.allowedOrigins.includes(origin)) return true;
  // localhost, 127.0.0.1 and [::1] are one machine: any of them on the service's own port is its own origin.
  if (!LOOPBACK.has(base.hostname) || !URL.canParse(origin)) return false;
  const o = new URL(origin);
  return LOOPBACK.has(o.hostname) && o.protocol === base.protocol && o.port === base.port;
}

function cors(req: McpRequest): Record<string, string> {
  const origin = req.headers.origin;
  return {
    ...(origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {}),
    'access-control-expose-headers': 'Mcp-Session-Id, MCP-Protocol-Version',
  };
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

/** Checks Origin and (unless initializing) the session; returns the answer when the request must stop here. */
async function admit(req: McpRequest, headers: Record<string, string>, ctx: McpEndpoint, needSession: boolean): Promise<McpAnswer | null> {
  if (!originAllowed(req, ctx)) {
    return rpcError(headers, 403, -32000, `Forbidden: Origin ${req.headers.origin ?? '(none)'} or Host ${req.headers.host ?? '(none)'} is not allowed`);
  }
  if (!needSession) return null;
  const token = req.headers['mcp-session-id'];
  if (typeof token !== 'string' || token === '') {
    return rpcError(headers, 400, -32000, 'Bad Request: Mcp-Session-Id header is required; send initialize first');
  }
  const state = await ctx.sessions.check(token);
  if (state !== 'ok') {
    const why = { invalid: 'unknown', expired: 'expired', ended: 'ended', idle: 'expired after inactivity' }[state];
    return rpcError(headers, 404, -32001, `Session not found (${why}); send initialize to start a new one`);
  }
  return null;
}

/** POST /mcp: one JSON-RPC message, answered as JSON through the SDK's streamable HTTP transport. */
export async function handleMcpPost(req: McpRequest, ctx: McpEndpoint): Promise<McpAnswer> {
  const body = req.body;
  const headers = cors(req);
  // Transport-level checks come before the session check, so a wrong request is told what is wrong with it.
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return rpcError(headers, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(headers, 406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  }
  const message = parseBody(body);
  const initializing = isInitialize(message);
  const refused = await admit(req, headers, ctx, !initializing);
  if (refused) return refused;

  const splices = new Splices();
  const server = buildMcpServer(ctx.live.current(), ctx.baseUrl, ctx.version, splices);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const requestHeaders = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') requestHeaders.set(k, v);
    // Parsed once here and handed over; only a body that is not JSON goes to the transport raw, for its -32700 answer.
    const request = new Request(`${ctx.baseUrl}${MCP_PATH}`, { method: 'POST', headers: requestHeaders, body: message === undefined ? body : undefined });
    const response = await transport.handleRequest(request, { parsedBody: message });
    if (initializing && response.status === 200) headers['mcp-session-id'] = await ctx.sessions.mint();
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const answer = splices.apply(Buffer.from(await response.arrayBuffer()));
    // An empty answer (202 to a notification) goes out without a body, so without a Content-Type.
    return { status: response.status, headers, ...(answer.length ? { body: answer } : {}) };
  } finally {
    await transport.close();
    await server.close();
  }
}

/** DELETE /mcp ends the session named in Mcp-Session-Id, on every replica. */
export async function handleMcpDelete(req: McpRequest, ctx: McpEndpoint): Promise<McpAnswer> {
  const headers = cors(req);
  const refused = await admit(req, headers, ctx, false);
  if (refused) return refused;
  const token = req.headers['mcp-session-id'];
  if (typeof token !== 'string' || token === '') return rpcError(headers, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  if (!(await ctx.sessions.end(token))) return rpcError(headers, 404, -32001, 'Session not found');
  return { status: 204, headers };
}

/** GET /mcp would open a server-to-client stream; this server sends nothing unasked, so it says so at once. */
export async function handleMcpGet(req: McpRequest, ctx: McpEndpoint): Promise<McpAnswer> {
  const headers = cors(req);
  const refused = await admit(req, headers, ctx, false);
  if (refused) return refused;
  return rpcError({ ...headers, allow: 'POST, DELETE' }, 405, -32000, 'Method Not Allowed: this server offers no server-initiated stream; POST requests instead');
}
