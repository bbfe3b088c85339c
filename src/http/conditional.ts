import Negotiator from 'negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Representation } from '../live/representation.js';

const CODINGS = ['br', 'gzip', 'identity'];

// negotiator 1.x takes a server preference for ties; its published types predate the option.
type EncodingPicker = (available: string[], opts: { preferred: string[] }) => string | undefined;

function pickCoding(acceptEncoding: string | undefined): string | undefined {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding ?? 'identity' } });
  return (negotiator.encoding as unknown as EncodingPicker).call(negotiator, CODINGS, { preferred: CODINGS });
}

export interface SendOptions {
  cacheControl?: string;
  /** Extra headers, e.g. Link for WebSub topics. */
  headers?: Record<string, string>;
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

/**
 * Sends a pre-built representation: conditional GET (If-None-Match, else If-Modified-Since),
 * content-coding negotiation, and the caching headers. Each coding has its own strong ETag.
 */
export function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation, opts: SendOptions = {}): FastifyReply {
  const coding = pickCoding(req.headers['accept-encoding']);
  let body = rep.identity;
  let suffix = '';
  if (coding === 'br' && rep.br) {
    body = rep.br;
    suffix = '-br';
    reply.header('content-encoding', 'br');
  } else if (coding === 'gzip' && rep.gzip) {
    body = rep.gzip;
    suffix = '-gzip';
    reply.header('content-encoding', 'gzip');
  }
  reply
    .header('etag', `"${rep.etag}${suffix}"`)
    .header('last-modified', rep.lastModified.toUTCString())
    .header('vary', 'Accept-Encoding')
    .header('cache-control', opts.cacheControl ?? 'public, max-age=60, stale-while-revalidate=60')
    .header('access-control-allow-origin', '*')
    .header('access-control-expose-headers', 'ETag, Link, Content-Encoding')
    .header('x-content-type-options', 'nosniff');
  for (const [k, v] of Object.entries(opts.headers ?? {})) reply.header(k, v);

  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const fresh = inm !== undefined ? ifNoneMatchHits(inm, rep.etag) : ims !== undefined && notModifiedSince(ims, rep.lastModified);
  if (fresh) {
    reply.removeHeader('content-encoding');
    return reply.code(304).send();
  }
  return reply.code(200).header('content-type', rep.contentType).send(body);
}
