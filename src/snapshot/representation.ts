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
  /** Bytes held: the identity and the codings made so far (what a cache charges for it). */
  readonly bytes: number;
  /** Calls `listener` whenever a coding is added (the cache holding it counts it again). */
  onGrow(listener: () => void): void;
}

function brotliQuality(bytes: number, compression: Compression): number {
  if (compression === 'on-demand') return 4;
  // Quality 11 is the smallest but ~50x slower; large bodies use a quality that keeps a rebuild in the hundreds of ms.
  return bytes <= 1_000_000 ? 11 : 5;
}

class BuiltRepresentation implements Representation {
  readonly identity: Buffer;
  readonly etag: string;
  readonly lastModified: Date;
  readonly lastModifiedHttp: string;
  private readonly made: Record<Coding, Buffer | null | undefined> = { gzip: undefined, br: undefined };
  private readonly making: Partial<Record<Coding, Promise<void>>> = {};
  private grew: () => void = () => undefined;

  constructor(
    body: string | Buffer,
    readonly contentType: string,
    lastModified: Date,
    private readonly compression: Compression,
    etag: string | undefined,
  ) {
    this.identity = typeof body === 'string' ? Buffer.from(body) : body;
    this.etag = etag ?? createHash('sha256').update(this.identity).digest('base64url').slice(0, 27);
    // HTTP dates have whole seconds; truncating keeps If-Modified-Since comparisons exact.
    this.lastModified = new Date(Math.floor(lastModified.getTime() / 1000) * 1000);
    this.lastModifiedHttp = this.lastModified.toUTCString();
    if (this.identity.length < MIN_COMPRESS_BYTES) this.made.gzip = this.made.br = null;
    else if (compression === 'now') {
      // A failure here would be an out-of-memory; the request that waits on encode() sees it.
      this.encode('gzip').catch(() => undefined);
      this.encode('br').catch(() => undefined);
    }
  }

  get bytes(): number {
    return this.identity.length + (this.made.gzip?.length ?? 0) + (this.made.br?.length ?? 0);
  }

  onGrow(listener: () => void): void {
    this.grew = listener;
  }

  coded(coding: Coding): Buffer | null | undefined {
    return this.made[coding];
  }

  encode(coding: Coding): Promise<void> {
    if (this.made[coding] !== undefined) return Promise.resolve();
    const quality = brotliQuality(this.identity.length, this.compression);
    if (this.identity.length < SYNC_COMPRESS_BYTES) {
      this.made[coding] = compressor.compressSync(coding, this.identity, quality);
      this.grew();
      return Promise.resolve();
    }
    this.making[coding] ??= compressor.compress(coding, this.identity, quality).then((bytes) => {
      this.made[coding] = bytes;
      this.grew();
    });
    return this.making[coding];
  }
}

export function buildRepresentation(body: string | Buffer, contentType: string, lastModified: Date, compression: Compression = 'now', etag?: string): Representation {
  return new BuiltRepresentation(body, contentType, lastModified, compression, etag);
}
