import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Bodies below this size are not worth compressing. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * One response body, serialised and compressed once and then served many times. The ETag is
 * a hash of the identity bytes, so every replica holding the same data sends the same tag.
 */
export interface Representation {
  readonly contentType: string;
  readonly identity: Buffer;
  readonly gzip: Buffer | null;
  readonly br: Buffer | null;
  /** Opaque tag without quotes or coding suffix. */
  readonly etag: string;
  readonly lastModified: Date;
}

export function buildRepresentation(body: string | Buffer, contentType: string, lastModified: Date): Representation {
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  const etag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  let gzip: Buffer | null = null;
  let br: Buffer | null = null;
  if (identity.length >= MIN_COMPRESS_BYTES) {
    gzip = gzipSync(identity, { level: 6 });
    // Quality 11 is the smallest but ~50x slower; large bodies use a quality that keeps a rebuild in the hundreds of ms.
    const quality = identity.length <= 1_000_000 ? 11 : 5;
    br = brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  }
  // HTTP dates have whole seconds; truncating keeps If-Modified-Since comparisons exact.
  const lm = new Date(Math.floor(lastModified.getTime() / 1000) * 1000);
  return { contentType, identity, gzip, br, etag, lastModified: lm };
}
