/** A served body: its bytes, compressed forms, ETag and type. */
import { createHash } from 'node:crypto';
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
 * One response body, serialised once and then served many times. The ETag is a hash of the
 * identity bytes (or given by the builder, as a hash of what determines them), so every
 * replica holding the same data sends the same tag.
 */
export interface Representation {
  readonly contentType: string;
  /** The identity body as the buffers it is sent as, in order (a slice of a shared document is one of them, not a copy). */
  readonly parts: readonly Buffer[];
  /** Length of the identity body. */
  readonly size: number;
  /** The identity body as one buffer: a copy when it has several parts, so for deliveries and examples, not for serving. */
  readonly identity: Buffer;
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

class BuiltRepresentation implements Representation {
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
    if (etag === undefined) {
      const hash = createHash('sha256');
      for (const part of this.parts) hash.update(part);
      etag = hash.digest('base64url').slice(0, 27);
    }
    this.etag = etag;
    // HTTP dates have whole seconds; truncating keeps If-Modified-Since comparisons exact.
    this.lastModified = new Date(Math.floor(lastModified.getTime() / 1000) * 1000);
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
): Representation {
  return new BuiltRepresentation(body, contentType, lastModified, compression, etag, made);
}
