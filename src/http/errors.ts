/** The JSON API's error catalogue and how errors are answered (JSON, or plain text for the hub). */
import type { FastifyReply } from 'fastify';
import type { ErrorBody, ValidationIssue } from '../core/schema/error.js';
import { kb, MAX_HEADER_BYTES, URL_LIMIT_TEXT } from '../limits.js';
import { STORE_RETRY_AFTER_SECONDS } from './store-outage.js';

/**
 * Every error the JSON API can answer with: a stable code, its status and what it means (Markdown).
 * docs/errors.md states this catalogue row for row and a test keeps the two in step.
 */
export const ERROR_CATALOGUE = {
  validation_error: { status: 400, meaning: 'A query or path parameter is invalid; `issues` says which and why.' },
  bad_request: { status: 400, meaning: 'The request itself is malformed (e.g. unparseable body).' },
  not_found: { status: 404, meaning: 'No such resource.' },
  method_not_allowed: { status: 405, meaning: 'The path exists but not with this method; see the `Allow` header.' },
  payload_too_large: { status: 413, meaning: 'The request body is larger than the service accepts.' },
  uri_too_long: { status: 414, meaning: `The request target (path and query) is longer than ${URL_LIMIT_TEXT}.` },
  headers_too_large: { status: 431, meaning: `The request line and headers together are larger than ${kb(MAX_HEADER_BYTES)}.` },
  unsupported_media_type: { status: 415, meaning: 'The request body has a Content-Type this endpoint does not take.' },
  too_many_requests: { status: 429, meaning: 'Rate limit or subscription cap reached; retry later (see `Retry-After`).' },
  invalid_callback: { status: 400, meaning: 'Hub: `hub.callback` is refused: it contains a control character (percent-encode it) or names an address that is not public.' },
  store_unavailable: {
    status: 503,
    meaning:
      'The store can not be reached or read (a corrupt, missing or unreachable database); the cause is logged. `/healthz` says so; MCP and the WebSub hub, which need the store for sessions, rate limits and subscriptions, answer it with `Retry-After` (the read API goes on from memory).',
  },
  internal_error: { status: 500, meaning: 'Something failed inside the service; it is logged, nothing is leaked.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** How errors are answered on a request target (errorStyles in operation.ts reads it from the route table). */
export interface ErrorStyle {
  /** In plain text (the hub, see plainTextErrors); JSON otherwise. */
  plainText: boolean;
  /** The CORS headers they carry: the public API's, or none where the endpoint has its own (see ownCors). */
  cors: Readonly<Record<string, string>>;
}

/** The answer of an endpoint that speaks plain text (the hub, WebSub §5.1.2): a reason, never cached. */
export function plainText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send(`${text}\n`);
}

/** An error from an endpoint that speaks plain text: its reason, led by the catalogue code of its status. */
export function plainTextError(reply: FastifyReply, status: number, text: string): FastifyReply {
  return plainText(reply, status, `${plainTextCode(status)}: ${text}`);
}

/** The catalogue code a plain-text error of this status carries. */
export function plainTextCode(status: number): ErrorCode {
  const byStatus: Partial<Record<number, ErrorCode>> = { 405: 'method_not_allowed', 413: 'payload_too_large', 414: 'uri_too_long', 415: 'unsupported_media_type', 429: 'too_many_requests' };
  return byStatus[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

export function errorBody(code: ErrorCode, message: string, issues?: ValidationIssue[]): ErrorBody {
  return issues ? { error: code, message, issues } : { error: code, message };
}

/** A JSON error; `headers` are those of the endpoint's answers it must carry too (its CORS headers, Retry-After). */
export function sendError(reply: FastifyReply, code: ErrorCode, message: string, more: { issues?: ValidationIssue[]; headers?: Readonly<Record<string, string>> } = {}): FastifyReply {
  const body = errorBody(code, message, more.issues);
  return reply
    .code(ERROR_CATALOGUE[code].status)
    .headers(more.headers ?? {})
    .header('content-type', 'application/json')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}

/** The answer to a request that needed the store while it can not be reached: 503 store_unavailable, with when to try again. */
export function sendStoreUnavailable(reply: FastifyReply, style: ErrorStyle): FastifyReply {
  const message = `The store can not be reached for now; retry in ${STORE_RETRY_AFTER_SECONDS} s`;
  const headers = { ...style.cors, 'retry-after': String(STORE_RETRY_AFTER_SECONDS) };
  if (style.plainText) return plainText(reply.headers(headers), 503, `store_unavailable: ${message}`);
  return sendError(reply, 'store_unavailable', message, { headers });
}
