/** The MCP endpoint: Origin and session checks, then one JSON-RPC message through the SDK's transport, over a plain request and answer; GET opens the session's notification stream. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { McpConfig } from '../config.js';
import type { LiveData } from '../snapshot/live-data.js';
import { partsLength } from '../snapshot/representation.js';
import type { McpSessions } from './sessions.js';
import { Splices } from './splice.js';
import type { McpStreams } from './streams.js';

export const MCP_PATH = '/mcp';

/** The SDK's part: the transport, its protocol versions and the server built on it. */
interface Protocol {
  Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport;
  versions: readonly string[];
  buildMcpServer: typeof import('./mcp-server.js').buildMcpServer;
  paramsProblem: typeof import('./mcp-server.js').paramsProblem;
}

let protocol: Promise<Protocol> | null = null;

/**
 * Loads the MCP SDK and the server on it, once. Not at start: they are a fifth of the service's
 * modules, and a restart serves everything else without them (the server loads them two seconds
 * after it listens, see warmMcp, unless an MCP request comes first).
 */
function loadProtocol(): Promise<Protocol> {
  protocol ??= Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('@modelcontextprotocol/sdk/types.js'), import('./mcp-server.js')]).then(
    ([http, types, server]) => ({ Transport: http.WebStandardStreamableHTTPServerTransport, versions: types.SUPPORTED_PROTOCOL_VERSIONS, buildMcpServer: server.buildMcpServer, paramsProblem: server.paramsProblem }),
    (err: unknown) => {
      // A load that failed (say, out of file handles for a moment) is tried again by the next request.
      protocol = null;
      throw err;
    },
  );
  return protocol;
}

/** Starts loading the SDK in the background, so the first MCP request does not wait for it. */
export function warmMcp(): Promise<void> {
  return loadProtocol().then(() => undefined);
}

/** What the endpoint reads of a request: its headers (lower-case names) and its body, unparsed. */
export interface McpRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** What it answers. */
export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body; several buffers are sent in order, as they are (an MCP resource's escaped document is one of them). */
  body?: string | Buffer | readonly Buffer[];
  /** An open-ended body (the GET event stream), in place of `body`. */
  stream?: Readable;
}

/** What it works with. */
export interface McpEndpoint {
  live: LiveData;
  /** Public origin, no trailing slash. */
  baseUrl: string;
  sessions: McpSessions;
  streams: McpStreams;
  config: McpConfig;
  version: string;
}

/** JSON-RPC error bodies for answers given before a request reaches the MCP server. */
function rpcError(headers: Record<string, string>, status: number, code: number, message: string, data?: Record<string, string>): McpAnswer {
  const error = data ? { code, message, data } : { code, message };
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', error, id: null }) };
}

/**
 * The answer to a request the store could not serve because it can not be reached (sessions are
 * checked there): 503 with when to try again, in the shape of the other refusals; `data.error`
 * carries the service's error code.
 */
export function storeUnavailableAnswer(req: McpRequest, ctx: McpEndpoint, retryAfterSeconds: number): McpAnswer {
  const message = `Service Unavailable: the store, where sessions are kept, can not be reached; retry in ${retryAfterSeconds} s`;
  return rpcError({ ...cors(req, ctx), 'retry-after': String(retryAfterSeconds) }, 503, -32000, message, { error: 'store_unavailable' });
}

/**
 * DNS-rebinding protection (MCP transport spec): a browser page on another origin must not
 * reach this server through the user's browser. Requests without Origin (non-browser clients)
 * pass; a present Origin must be the service's own or a configured one.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What of the request is refused, `Host <host>` or `Origin <origin>`, or null when it may pass. */
function refusedOrigin(req: Pick<McpRequest, 'headers'>, ctx: Pick<McpEndpoint, 'baseUrl' | 'config'>): string | null {
  const base = new URL(ctx.baseUrl);
  // Served on loopback, the service must be reached by a loopback name: a rebinding attack arrives with the attacker's host name.
  if (LOOPBACK.has(base.hostname) && req.headers.host !== undefined) {
    const host = URL.canParse(`http://${req.headers.host}`) ? new URL(`http://${req.headers.host}`).hostname : '';
    if (!LOOPBACK.has(host)) return `Host ${req.headers.host}`;
  }
  const origin = req.headers.origin;
  if (origin === undefined || origin === base.origin || ctx.config.allowedOrigins.includes(origin)) return null;
  // localhost, 127.0.0.1 and [::1] are one machine: any of them on the service's own port is its own origin.
  if (LOOPBACK.has(base.hostname) && URL.canParse(origin)) {
    const o = new URL(origin);
    if (LOOPBACK.has(o.hostname) && o.protocol === base.protocol && o.port === base.port) return null;
  }
  return `Origin ${origin}`;
}

/**
 * The CORS headers of every answer. Only an admitted Origin is granted: one the request is
 * refused for (403) gets no Access-Control-Allow-Origin, so the page that sent it can not read
 * the answer, nor any other answer (415, 406 ...) given before the Origin check.
 */
function cors(req: McpRequest, ctx: McpEndpoint): Record<string, string> {
  const origin = req.headers.origin;
  return {
    ...grantedOrigin(req, ctx),
    ...(origin ? { vary: 'Origin' } : {}),
    'access-control-expose-headers': 'Mcp-Session-Id, MCP-Protocol-Version',
  };
}

/** Access-Control-Allow-Origin for an admitted Origin, nothing for a refused or absent one: every answer's, and the preflight's (OPTIONS /mcp). */
export function grantedOrigin(req: Pick<McpRequest, 'headers'>, ctx: Pick<McpEndpoint, 'baseUrl' | 'config'>): Record<string, string> {
  const origin = req.headers.origin;
  return origin && refusedOrigin(req, ctx) === null ? { 'access-control-allow-origin': origin } : {};
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
  const refused = refusedOrigin(req, ctx);
  if (refused !== null) return rpcError(headers, 403, -32000, `Forbidden: ${refused} is not allowed`);
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
  const headers = cors(req, ctx);
  // Transport-level checks come before the session check, so a wrong request is told what is wrong with it.
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return rpcError(headers, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(headers, 406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  }
  const message = parseBody(body);
  // JSON-RPC 2.0 §6: an empty batch is one Invalid Request error (the transport would answer 202, as to a notification).
  if (Array.isArray(message) && message.length === 0) {
    return rpcError(headers, 400, -32600, 'Invalid Request: an empty batch; send one JSON-RPC request');
  }
  const initializing = isInitialize(message);
  const refused = await admit(req, headers, ctx, !initializing);
  if (refused) return refused;
  if (initializing && !(await ctx.sessions.hasRoom())) {
    return rpcError({ ...headers, 'retry-after': '60' }, 503, -32000, `Service Unavailable: ${ctx.config.maxSessions} MCP sessions are open, the most this server keeps; retry later, and end sessions with DELETE when done`);
  }

  const { Transport, buildMcpServer, paramsProblem } = await loadProtocol();
  // Requests whose params do not fit their method are answered here, -32602; the rest go to the SDK.
  const list: unknown[] = Array.isArray(message) ? message : [message];
  const paramErrors: object[] = [];
  const rest = list.filter((m) => {
    if (!isRequest(m)) return true;
    const problem = paramsProblem(m);
    if (problem === null) return true;
    paramErrors.push({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: problem } });
    return false;
  });
  if (paramErrors.length > 0 && rest.length === 0) {
    const answer = Array.isArray(message) ? paramErrors : paramErrors[0];
    return { status: 200, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(answer) };
  }
  const forward = paramErrors.length > 0 ? rest : message;

  const splices = new Splices();
  const token = req.headers['mcp-session-id'];
  const subscriptions = initializing || typeof token !== 'string' ? undefined : ctx.streams.forSession(token);
  const server = buildMcpServer(ctx.live.current(), ctx.baseUrl, ctx.version, splices, subscriptions);
  const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const requestHeaders = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') requestHeaders.set(k, v);
    // Parsed once here and handed over; only a body that is not JSON goes to the transport raw, for its -32700 answer.
    const request = new Request(`${ctx.baseUrl}${MCP_PATH}`, { method: 'POST', headers: requestHeaders, body: message === undefined ? body : undefined });
    const response = await transport.handleRequest(request, { parsedBody: forward });
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const answer = splices.apply(Buffer.from(await response.arrayBuffer()));
    const length = partsLength(answer);
    // A session starts only when initialize succeeded: a failed one (an error answer) mints nothing.
    if (initializing && response.status === 200 && succeeded(answer)) headers['mcp-session-id'] = await ctx.sessions.mint();
    if (paramErrors.length > 0) {
      const answered = length ? (JSON.parse(Buffer.concat(answer).toString()) as unknown) : [];
      headers['content-type'] = 'application/json';
      // The batch has answers now, even if what the SDK had was only notifications.
      return { status: 200, headers, body: JSON.stringify([...paramErrors, ...(Array.isArray(answered) ? answered : [answered])]) };
    }
    // An empty answer (202 to a notification) goes out without a body, so without a Content-Type.
    return { status: response.status, headers, ...(length ? { body: answer } : {}) };
  } finally {
    await transport.close();
    await server.close();
  }
}

/** A JSON-RPC request (it has an id and a method), as opposed to a notification or a response. */
function isRequest(m: unknown): m is { id: string | number; method: string } {
  return typeof m === 'object' && m !== null && 'id' in m && typeof (m as { method?: unknown }).method === 'string';
}

/** Whether a JSON-RPC answer is a result (not an error). */
function succeeded(answer: readonly Buffer[]): boolean {
  try {
    const parsed = JSON.parse(Buffer.concat(answer).toString()) as unknown;
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    return typeof first === 'object' && first !== null && 'result' in first;
  } catch {
    return false;
  }
}

/** DELETE /mcp ends the session named in Mcp-Session-Id, on every replica. */
export async function handleMcpDelete(req: McpRequest, ctx: McpEndpoint): Promise<McpAnswer> {
  const headers = cors(req, ctx);
  const refused = await admit(req, headers, ctx, false);
  if (refused) return refused;
  const token = req.headers['mcp-session-id'];
  if (typeof token !== 'string' || token === '') return rpcError(headers, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  const ended = await ctx.sessions.end(token);
  // Its stream and subscriptions here go either way: a session ended on another replica is over here too.
  ctx.streams.forget(token);
  if (!ended) return rpcError(headers, 404, -32001, 'Session not found');
  return { status: 204, headers };
}

/**
 * GET /mcp opens the session's stream of server-to-client messages (Server-Sent Events): the
 * notifications of its resource subscriptions and of changes to the resource list. Requests are
 * still answered on their POST; nothing else is sent unasked.
 */
export async function handleMcpGet(req: McpRequest, ctx: McpEndpoint): Promise<McpAnswer> {
  const headers = cors(req, ctx);
  const refused = await admit(req, headers, ctx, true);
  if (refused) return refused;
  if (!(req.headers.accept ?? '').includes('text/event-stream')) return rpcError(headers, 406, -32000, 'Not Acceptable: Accept must list text/event-stream');
  const version = req.headers['mcp-protocol-version'];
  const { versions } = await loadProtocol();
  if (typeof version === 'string' && !versions.includes(version)) {
    return rpcError(headers, 400, -32000, `Bad Request: Unsupported protocol version ${version} (supported versions: ${versions.join(', ')})`);
  }
  const stream = ctx.streams.open(req.headers['mcp-session-id'] as string);
  if (!stream) return rpcError(headers, 409, -32000, 'Conflict: this session already has a stream open; close it before opening another');
  return { status: 200, headers: { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' }, stream };
}
