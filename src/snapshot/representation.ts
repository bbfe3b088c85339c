/** A served body: its bytes, compressed forms, ETag and type. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { compressor, SYNC_COMPRESS_BYTES, type Coding } from './compressor.js';

export type { Coding } from './compressor.js';

/** Bodies below this size are not worth compressing. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * `now`: documents served many times per revision (datasets, feeds, pages), compressed as soon
 * as they are built, brotli at the smallest size a rebuild can afford. `on-demand`: per-query
 * answers (searches, dates), compressed only when a client asks for that coding, at a fast
 * quality, so a request that wants identity never pays for compression.
 */
export type Compression = 'now' | 'on-demand';

/**
 * How an identity body is sent: the buffers it is made of, in order (a slice of a shared document
 * is one of them, not a copy), or a stream made anew for each request when only a compressed form
 * is held.
 */
export type Body = readonly Buffer[] | (() => Readable);

/**
 * One response body, serialised once and then served many times. The ETag is a hash of the
 * identity bytes (or given by the builder, as a hash of what determines them), so every
 * replica holding the same data sends the same tag.
 */
export interface Representation {
  readonly contentType: string;
  /** The identity body as it is sent. */
  readonly body: Body;
  /** Length of the identity body. */
  readonly size: number;
  /** Opaque tag without quotes or coding suffix. */
  readonly etag: string;
  readonly lastModified: Date;
  /** lastModified as an HTTP date, formatted once. */
  readonly lastModifiedHttp: string;
  /** The body in a coding: null when it is too small to be worth compressing, undefined while not made yet (see encode). */
  coded(coding: Coding): Buffer | null | undefined;
  /** Makes the coding (large bodies off the event loop); coded() has it once this resolves. */
  encode(coding: Coding): Promise<void>;
  /** Bytes held by this body alone: its own parts and the codings made so far (what a cache charges for it; a shared document's view is charged to that document). */
  readonly bytes: number;
  /** Calls `listener` whenever a coding is added (the cache holding it counts it again). */
  onGrow(listener: () => void): void;
}

/** A body whose identity bytes are held (every body but the largest document's). */
export interface HeldRepresentation extends Representation {
  readonly body: readonly Buffer[];
  /** The identity body as one buffer: a copy when it has several parts, so for deliveries and examples, not for serving. */
  readonly identity: Buffer;
}

/** The ETag of a body made of these parts: a hash of its bytes, the same in every replica. */
export function bodyTag(parts: readonly Buffer[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('base64url').slice(0, 27);
}

/** HTTP dates have whole seconds; truncating keeps If-Modified-Since comparisons exact. */
function wholeSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

function brotliQuality(bytes: number, compression: Compression): number {
  if (compression === 'on-demand') return 4;
  // Quality 11 is the smallest but ~50x slower; large bodies use a quality that keeps a rebuild in the hundreds of ms.
  return bytes <= 1_000_000 ? 11 : 5;
}

/**
 * A body made of several buffers sent one after another: `owned` of its bytes belong to it alone,
 * the rest are views of a buffer shared per revision (the published reviews' bytes).
 */
export interface BodyParts {
  readonly parts: readonly Buffer[];
  readonly owned: number;
}

/** Bytes of a body sent as several buffers: its Content-Length. */
export function partsLength(parts: readonly Buffer[]): number {
  return parts.reduce((sum, part) => sum + part.length, 0);
}

function isParts(body: string | Buffer | BodyParts): body is BodyParts {
  return typeof body === 'object' && !Buffer.isBuffer(body);
}

class BuiltRepresentation implements HeldRepresentation {
  readonly parts: readonly Buffer[];
  readonly size: number;
  private readonly owned: number;
  readonly etag: string;
  readonly lastModified: Date;
  readonly lastModifiedHttp: string;
  private readonly made: Record<Coding, Buffer | null | undefined> = { gzip: undefined, br: undefined };
  private readonly making: Partial<Record<Coding, Promise<void>>> = {};
  private grew: () => void = () => undefined;

  constructor(
    body: string | Buffer | BodyParts,
    readonly contentType: string,
    lastModified: Date,
    private readonly compression: Compression,
    etag: string | undefined,
    made: Partial<Record<Coding, Buffer>>,
  ) {
    if (isParts(body)) {
      this.parts = body.parts;
      this.owned = body.owned;
    } else {
      this.parts = [typeof body === 'string' ? Buffer.from(body) : body];
      this.owned = this.parts[0]!.length;
    }
    this.size = partsLength(this.parts);
    this.etag = etag ?? bodyTag(this.parts);
    this.lastModified = wholeSeconds(lastModified);
    this.lastModifiedHttp = this.lastModified.toUTCString();
    if (made.gzip) this.made.gzip = made.gzip;
    if (made.br) this.made.br = made.br;
    if (this.size < MIN_COMPRESS_BYTES) this.made.gzip = this.made.br = null;
    else if (compression === 'now') {
      // A failure here would be an out-of-memory; the request that waits on encode() sees it.
      this.encode('gzip').catch(() => undefined);
      this.encode('br').catch(() => undefined);
    }
  }

  get body(): readonly Buffer[] {
    return this.parts;
  }

  get identity(): Buffer {
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
  }

  get bytes(): number {
    return this.owned + (this.made.gzip?.length ?? 0) + (this.made.br?.length ?? 0);
  }

  onGrow(listener: () => void): void {
    this.grew = listener;
  }

  coded(coding: Coding): Buffer | null | undefined {
    return this.made[coding];
  }

  encode(coding: Coding): Promise<void> {
    if (this.made[coding] !== undefined) return Promise.resolve();
    const quality = brotliQuality(this.size, this.compression);
    if (this.size < SYNC_COMPRESS_BYTES) {
      this.made[coding] = compressor.compressSync(coding, this.identity, quality);
      this.grew();
      return Promise.resolve();
    }
    this.making[coding] ??= compressor.compress(coding, this.parts, this.size, quality).then((bytes) => {
      this.made[coding] = bytes;
      this.grew();
    });
    return this.making[coding];
  }
}

/** `made`: codings already at hand (an insights document's kept gzip), used instead of compressing again. */
export function buildRepresentation(
  body: string | Buffer | BodyParts,
  contentType: string,
  lastModified: Date,
  compression: Compression = 'now',
  etag?: string,
  made: Partial<Record<Coding, Buffer>> = {},
): HeldRepresentation {
  return new BuiltRepresentation(body, contentType, lastModified, compression, etag, made);
}

/** Output chunk of an identity body streamed from its gzip form. */
const STREAM_CHUNK_BYTES = 256 * 1024;

/**
 * A large document held only compressed: its gzip coding (as kept in the store) and its brotli
 * coding once made. Identity is streamed from the gzip bytes for each request that asks for it,
 * so its tens of megabytes are not held: a client that takes no coding pays a decompression on
 * the thread pool instead, and the cost limit charges it the identity's size.
 */
class GzipHeldRepresentation implements Representation {
  readonly lastModified: Date;
  readonly lastModifiedHttp: string;
  private br: Buffer | undefined;
  private making: Promise<void> | undefined;
  private grew: () => void = () => undefined;

  constructor(
    private readonly gzip: Buffer,
    readonly size: number,
    readonly etag: string,
    readonly contentType: string,
    lastModified: Date,
    br: Buffer | undefined,
  ) {
    this.br = br;
    this.lastModified = wholeSeconds(lastModified);
    this.lastModifiedHttp = this.lastModified.toUTCString();
  }

  readonly body = (): Readable => Readable.from([this.gzip], { objectMode: false }).pipe(createGunzip({ chunkSize: STREAM_CHUNK_BYTES }));

  get bytes(): number {
    return this.gzip.length + (this.br?.length ?? 0);
  }

  onGrow(listener: () => void): void {
    this.grew = listener;
  }

  coded(coding: Coding): Buffer | undefined {
    return coding === 'gzip' ? this.gzip : this.br;
  }

  /** Brotli is made from the identity streamed from the gzip bytes, never held whole. */
  encode(coding: Coding): Promise<void> {
    if (coding === 'gzip' || this.br) return Promise.resolve();
    this.making ??= compressor.compress('br', this.body, this.size, brotliQuality(this.size, 'now')).then((br) => {
      this.br = br;
      this.grew();
    });
    return this.making;
  }
}

/** A document held as its gzip coding (`size` bytes and `etag` of its identity, known from when it was made). */
export function gzipHeldRepresentation(gzip: Buffer, size: number, etag: string, contentType: string, lastModified: Date, br?: Buffer): Representation {
  return new GzipHeldRepresentation(gzip, size, etag, contentType, lastModified, br);
}
