/** Conditional GET and content coding: ETag, Last-Modified, 304 and the pre-compressed bodies. */
import Negotiator from 'negotiator';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Body, Coding, Representation } from '../snapshot/representation.js';
import { PUBLIC_CORS } from './cors.js';
import { setAnswerCost, type LimitHeaders } from './gate.js';

const CODINGS = ['br', 'gzip', 'identity'];

// negotiator 1.x takes a server preference for ties; its published types predate the option.
type EncodingPicker = (available: string[], opts: { preferred: string[] }) => string | undefined;

// Clients send a handful of distinct Accept-Encoding values, so negotiation is done once per value.
const codingCache = new Map<string, string | undefined>();

function pickCoding(acceptEncoding: string | undefined): string | undefined {
  const key = acceptEncoding ?? 'identity';
  if (codingCache.has(key)) return codingCache.get(key);
  const negotiator = new Negotiator({ headers: { 'accept-encoding': key } });
  const coding = (negotiator.encoding as unknown as EncodingPicker).call(negotiator, CODINGS, { preferred: CODINGS });
  if (codingCache.size >= 256) codingCache.clear();
  codingCache.set(key, coding);
  return coding;
}

export interface SendOptions {
  cacheControl?: string;
  /** An answer built for requests like this one: a 200 costs the client its identity size, whatever coding it goes in. */
  answer?: boolean;
  /** Extra headers, e.g. Link for WebSub topics. */
  headers?: Record<string, string>;
}

/** A pre-built body and how to send it: what a document-style endpoint answers with. */
export interface Served {
  rep: Representation;
  opts?: SendOptions;
}

/** Strips W/ and the coding suffix: If-None-Match uses the weak comparison (RFC 9110 §13.1.2). */
function tagBase(tag: string): string {
  return tag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"|"$/g, '')
    .replace(/-(br|gzip)$/, '');
}

function ifNoneMatchHits(header: string, etag: string): boolean {
  return header.split(',').some((t) => t.trim() === '*' || tagBase(t) === etag);
}

function notModifiedSince(header: string, lastModified: Date): boolean {
  const since = Date.parse(header);
  return Number.isFinite(since) && lastModified.getTime() <= since;
}

export interface PreparedResponse {
  status: 200 | 304;
  headers: Record<string, string | number>;
  /** The body as sent (Body); null for 304. */
  body: Body | null;
  /** Bytes of the body: its Content-Length. */
  length: number;
}

/** A 200 that waits for a compressed form of a large body (made off the event loop): encode it, then prepare again. */
export interface PendingCoding {
  status: 'encode';
  coding: Coding;
}

/**
 * The answer to a GET for a pre-built representation: conditional GET (If-None-Match, else
 * If-Modified-Since) first, then content-coding negotiation and the caching headers. Each
 * coding has its own strong ETag. Shared by the fastify handlers and the fast path. A 304 never
 * waits for compression; a 200 in a coding not made yet is PendingCoding.
 */
export function prepareResponse(rep: Representation, opts: SendOptions, reqHeaders: IncomingHttpHeaders, limit?: LimitHeaders): PreparedResponse | PendingCoding {
  const headers: Record<string, string | number> = {
    'last-modified': rep.lastModifiedHttp,
    vary: 'Accept-Encoding',
    'cache-control': opts.cacheControl ?? 'public, max-age=60, stale-while-revalidate=60',
    'access-control-allow-origin': PUBLIC_CORS['access-control-allow-origin'],
    'access-control-expose-headers': PUBLIC_CORS['access-control-expose-headers'],
    'x-content-type-options': 'nosniff',
    ...opts.headers,
  };
  // Assigned, not spread into the literal above: a leading spread made this object, and every 304, about 40% slower.
  if (limit) {
    headers['ratelimit-policy'] = limit['ratelimit-policy'];
    headers.ratelimit = limit.ratelimit;
  }
  const coding = pickCoding(reqHeaders['accept-encoding']);
  const wanted = coding === 'br' || coding === 'gzip' ? coding : null;
  const coded = wanted && rep.coded(wanted);
  // A body too small to compress goes as identity; one not compressed yet has the coding's tag all the same.
  const suffix = wanted && coded !== null ? `-${wanted}` : '';
  headers.etag = `"${rep.etag}${suffix}"`;
  const inm = reqHeaders['if-none-match'];
  const ims = reqHeaders['if-modified-since'];
  // Clients mostly send back the very tag they were given: an exact match skips the parse.
  const fresh = inm !== undefined ? inm === headers.etag || ifNoneMatchHits(inm, rep.etag) : ims !== undefined && notModifiedSince(ims, rep.lastModified);
  if (fresh) return { status: 304, headers, body: null, length: 0 };
  if (wanted && coded === undefined) return { status: 'encode', coding: wanted };
  const body = coded ? [coded] : rep.body;
  const length = coded ? coded.length : rep.size;
  if (suffix) headers['content-encoding'] = wanted!;
  headers['content-type'] = rep.contentType;
  headers['content-length'] = length;
  return { status: 200, headers, body, length };
}

/**
 * What a fastify reply sends for a body: the one buffer itself, or a stream of its buffers (each
 * written as it is, without joining them into one copy), or its own stream. Content-Length is
 * the caller's to set: fastify sets none for a stream.
 */
export function payloadOf(parts: Body): Buffer | Readable {
  if (typeof parts === 'function') return parts();
  return parts.length === 1 ? parts[0]! : Readable.from(parts, { objectMode: false });
}

/** Ends a raw response with a body: several buffers corked so they leave in one writev, a stream piped (a client gone destroys it). */
export function endWithParts(res: ServerResponse, parts: Body | null): void {
  if (typeof parts === 'function') {
    // An error mid-body can only end the connection (the status is sent): pipeline destroys it.
    pipeline(parts(), res, () => undefined);
    return;
  }
  if (!parts || parts.length <= 1) {
    res.end(parts?.[0]);
    return;
  }
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  res.uncork();
}

export async function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation, opts: SendOptions = {}): Promise<FastifyReply> {
  let p = prepareResponse(rep, opts, req.headers);
  if (p.status === 'encode') {
    await rep.encode(p.coding);
    p = prepareResponse(rep, opts, req.headers) as PreparedResponse;
  }
  if (opts.answer && p.status === 200) setAnswerCost(req.raw, rep.size);
  reply.code(p.status).headers(p.headers);
  if (!p.body) return reply.send();
  // A body streamed from a compressed form is not made for a HEAD only to be drained (an empty stream keeps GET's Content-Length).
  return reply.send(typeof p.body === 'function' && req.method === 'HEAD' ? Readable.from([]) : payloadOf(p.body));
}
