/** A served body: its bytes, compressed forms, ETag and type. */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Bodies below this size are not worth compressing. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * `now`: documents served many times per revision (datasets, feeds, pages), compressed while the
 * snapshot is built, brotli at the smallest size a rebuild can afford. `on-demand`: per-query
 * answers (searches), compressed only when a client asks for that coding, at a fast quality, so
 * a request that wants identity never pays for compression.
 */
export type Compression = 'now' | 'on-demand';

/**
 * One response body, serialised once and then served many times. The ETag is a hash of the
 * identity bytes, so every replica holding the same data sends the same tag.
 */
export interface Representation {
  readonly contentType: string;
  readonly identity: Buffer;
  /** Null when the body is too small to be worth compressing. */
  readonly gzip: Buffer | null;
  readonly br: Buffer | null;
  /** Opaque tag without quotes or coding suffix. */
  readonly etag: string;
  readonly lastModified: Date;
  /** lastModified as an HTTP date, formatted once. */
  readonly lastModifiedHttp: string;
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
  private gzipBytes: Buffer | null | undefined;
  private brBytes: Buffer | null | undefined;

  constructor(
    body: string | Buffer,
    readonly contentType: string,
    lastModified: Date,
    private readonly compression: Compression,
  ) {
    this.identity = typeof body === 'string' ? Buffer.from(body) : body;
    this.etag = createHash('sha256').update(this.identity).digest('base64url').slice(0, 27);
    // HTTP dates have whole seconds; truncating keeps If-Modified-Since comparisons exact.
    this.lastModified = new Date(Math.floor(lastModified.getTime() / 1000) * 1000);
    this.lastModifiedHttp = this.lastModified.toUTCString();
    if (compression === 'now') {
      this.gzipBytes = this.gzip;
      this.brBytes = this.br;
    }
  }

  get gzip(): Buffer | null {
    if (this.gzipBytes === undefined) this.gzipBytes = this.identity.length < MIN_COMPRESS_BYTES ? null : gzipSync(this.identity, { level: 6 });
    return this.gzipBytes;
  }

  get br(): Buffer | null {
    if (this.brBytes === undefined) {
      const n = this.identity.length;
      this.brBytes =
        n < MIN_COMPRESS_BYTES
          ? null
          : brotliCompressSync(this.identity, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: brotliQuality(n, this.compression),
                [constants.BROTLI_PARAM_SIZE_HINT]: n,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            });
    }
    return this.brBytes;
  }
}

export function buildRepresentation(body: string | Buffer, contentType: string, lastModified: Date, compression: Compression = 'now'): Representation {
  return new BuiltRepresentation(body, contentType, lastModified, compression);
}
