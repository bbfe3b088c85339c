/** The JSON API's error catalogue and how errors are answered (JSON, or plain text for the hub). */
import type { FastifyReply } from 'fastify';
import type { ErrorBody, ValidationIssue } from '../core/schema/error.js';
import { kb, MAX_HEADER_BYTES, URL_LIMIT_TEXT } from '../limits.js';

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
  store_unavailable: { status: 503, meaning: '`/healthz`: the store can not answer a read (a corrupt, missing or unreachable database); the cause is logged.' },
  internal_error: { status: 500, meaning: 'Something failed inside the service; it is logged, nothing is leaked.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

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
  const byStatus: Partial<Record<number, ErrorCode>> = { 413: 'payload_too_large', 414: 'uri_too_long', 415: 'unsupported_media_type', 429: 'too_many_requests' };
  return byStatus[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

export function errorBody(code: ErrorCode, message: string, issues?: ValidationIssue[]): ErrorBody {
  return issues ? { error: code, message, issues } : { error: code, message };
}

export function sendError(reply: FastifyReply, code: ErrorCode, message: string, issues?: ValidationIssue[]): FastifyReply {
  const body = errorBody(code, message, issues);
  return reply
    .code(ERROR_CATALOGUE[code].status)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}
