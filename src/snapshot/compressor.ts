/** Compression of response bodies: small ones at once, large ones on the thread pool, a few at a time. */
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gunzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';

export type Coding = 'gzip' | 'br';

/** Below this, compressing on the event loop costs less than handing the work to a thread (well under a millisecond). */
export const SYNC_COMPRESS_BYTES = 64 * 1024;

/** Output chunk of a compression stream: a few hundred of them for the largest documents. */
const CHUNK_BYTES = 256 * 1024;

function options(coding: Coding, bytes: number, brotliQuality: number): ZlibOptions | BrotliOptions {
  if (coding === 'gzip') return { level: 6, chunkSize: CHUNK_BYTES };
  return {
    chunkSize: CHUNK_BYTES,
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  };
}

/**
 * Large bodies are compressed by zlib on libuv's thread pool rather than on the event loop, and
 * at most `concurrency` at once, so a flood of large answers queues here instead of taking every
 * core (COMPRESS_CONCURRENCY; one by default, leaving the other core of a small machine to the
 * event loop). Process-wide, like the thread pool it uses.
 */
class Compressor {
  private concurrency = 1;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Compressions running or queued, for /metrics. */
  pending = 0;

  configure(concurrency: number): void {
    this.concurrency = concurrency;
  }

  /** On the event loop: for bodies under SYNC_COMPRESS_BYTES. */
  compressSync(coding: Coding, body: Buffer, brotliQuality: number): Buffer {
    return coding === 'gzip' ? gzipSync(body, options(coding, body.length, brotliQuality)) : brotliCompressSync(body, options(coding, body.length, brotliQuality));
  }

  /**
   * Off the event loop, after the compressions already queued. The body's parts (`size` bytes
   * in all), or the stream it is read from, go through zlib in order, so a body cut from a
   * shared document (or decompressed from another coding) is never held whole first.
   */
  async compress(coding: Coding, parts: readonly Buffer[] | (() => Readable), size: number, brotliQuality: number): Promise<Buffer> {
    this.pending++;
    try {
      if (this.running >= this.concurrency) await new Promise<void>((r) => this.waiting.push(r));
      this.running++;
      try {
        const opts = options(coding, size, brotliQuality);
        const engine = coding === 'gzip' ? createGzip(opts) : createBrotliCompress(opts);
        const source = typeof parts === 'function' ? parts() : Readable.from(parts, { objectMode: false });
        const [, compressed] = await Promise.all([pipeline(source, engine), buffer(engine)]);
        return compressed;
      } finally {
        this.running--;
        this.waiting.shift()?.();
      }
    } finally {
      this.pending--;
    }
  }
}

export const compressor = new Compressor();

const gunzipAsync = promisify(gunzip);

/**
 * Decompresses a kept gzip body on the thread pool into one buffer sized from its trailer (ISIZE,
 * the length modulo 2^32), so tens of megabytes are not gathered in 16 KiB pieces and copied
 * again; a wrong size only means more pieces. One byte more than the size: zlib allocates a
 * whole new output chunk as soon as one is exactly full, which for a 53 MB body was 53 MB more
 * of buffers until the stream was collected (never written, so not resident, but counted as the
 * process's external memory, which V8 weighs when it collects; test/startup.test.ts).
 */
export function gunzipWhole(gz: Buffer): Promise<Buffer> {
  const size = gz.length >= 18 ? gz.readUInt32LE(gz.length - 4) : 0;
  return gunzipAsync(gz, { chunkSize: Math.max(CHUNK_BYTES, size + 1) });
}
