/** Import files as text: UTF-8, or UTF-16 with its byte order mark; a byte that is not text is refused with its offset and line. */
import { basename, dirname, extname, join } from 'node:path';
import { ImportFileError } from './types.js';

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** UTF-16 only by its byte order mark (Excel's "Unicode text" writes one); anything else is read as UTF-8. */
function encodingOf(start: Uint8Array): Encoding {
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** A byte order mark is kept in the text (each reader skips it), so bytes in and text out stay the same length. */
const strict = (encoding: Encoding) => new TextDecoder(encoding, { fatal: true, ignoreBOM: true });

/** Line breaks as the CSV reader counts lines (\r\n, \n or a lone \r); `afterCr`: the text before ended with \r. */
function lineBreaks(text: string, afterCr: boolean): number {
  let n = 0;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) n++;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i === 0 ? !afterCr : text[i - 1] !== '\r') n++;
  return n;
}

/** A shell word for a path, for a command the operator can paste. */
const shellWord = (path: string) => (/^[\w./+-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`);

/** How to convert a file in an older Windows or Latin-1 encoding to UTF-8 (a pipe, on its way in), as the operator can paste it. */
function conversion(path: string): string {
  const iconv = 'iconv -f windows-1252 -t utf-8';
  if (path.startsWith('/dev/')) return `pipe it through ${iconv} on its way in`;
  const ext = extname(path);
  return `${iconv} ${shellWord(path)} > ${shellWord(join(dirname(path), `${basename(path, ext)}-utf8${ext}`))} and import the copy`;
}

/** Bytes decoded at a time: where one is refused, its bytes are fed again one by one to find the first bad one. */
const PIECE_BYTES = 64 * 1024;

/**
 * Decodes a file a chunk at a time with a fatal TextDecoder (a file may be larger than one
 * string can hold). The first chunk tells the encoding. On a refusal the bytes from the last
 * character decoded are fed again one at a time, for the offset and line of the first bad byte.
 */
export class TextReader {
  private decoder: TextDecoder | undefined;
  private encoding: Encoding = 'utf-8';
  /** Bytes fed so far, and those given back as text: the difference is a character begun and not yet ended. */
  private fed = 0;
  private decoded = 0;
  /** The last bytes fed: they hold that character's start (3 bytes at most in either encoding). */
  private tail: Buffer = Buffer.alloc(0);
  private line = 1;
  private afterCr = false;

  constructor(private readonly path: string) {}

  /** UTF-8 files decode to the very bytes they hold, which can be passed on as they are. */
  get utf8(): boolean {
    return this.encoding === 'utf-8';
  }

  /** The text of the next chunk; an ImportFileError at the first byte that is not text. */
  push(chunk: Buffer): string {
    if (chunk.length > PIECE_BYTES) {
      const parts: string[] = [];
      for (let at = 0; at < chunk.length; at += PIECE_BYTES) parts.push(this.push(chunk.subarray(at, at + PIECE_BYTES)));
      return parts.join('');
    }
    if (!this.decoder) {
      this.encoding = encodingOf(chunk);
      this.decoder = strict(this.encoding);
    }
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      throw this.refusal(chunk);
    }
    this.took(text);
    this.fed += chunk.length;
    this.tail = chunk.length >= 3 ? chunk.subarray(-3) : Buffer.concat([this.tail, chunk]).subarray(-3);
    return text;
  }

  /** The end of the file: an ImportFileError if it ends inside a character. */
  end(): void {
    try {
      this.decoder?.decode();
    } catch {
      throw this.refusal(Buffer.alloc(0));
    }
  }

  private took(text: string): void {
    if (text === '') return;
    this.decoded += this.utf8 ? Buffer.byteLength(text) : text.length * 2;
    this.line += lineBreaks(text, this.afterCr);
    this.afterCr = text.endsWith('\r');
  }

  /** The error naming the first bad byte, found by feeding a fresh decoder from the character under way, a byte at a time. */
  private refusal(chunk: Buffer): ImportFileError {
    const pending = this.fed - this.decoded;
    const bytes = Buffer.concat([this.tail.subarray(this.tail.length - pending), chunk]);
    const decoder = strict(this.encoding);
    // The start, in `bytes`, of the character being read when the decoder refused.
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      try {
        const text = i < bytes.length ? decoder.decode(bytes.subarray(i, i + 1), { stream: true }) : decoder.decode();
        if (text !== '') {
          this.took(text);
          start = i + 1;
        }
      } catch {
        break;
      }
    }
    const where = `on line ${this.line.toLocaleString('en')} (${(this.fed - pending + start).toLocaleString('en')} bytes from the start of the file)`;
    if (this.utf8) {
      const byte = `0x${bytes[start]!.toString(16).toUpperCase().padStart(2, '0')}`;
      return new ImportFileError(
        `${this.path} is not UTF-8 text: the byte ${byte} ${where} is not part of a UTF-8 character. The file was probably saved in an older encoding such as Windows-1252 or Latin-1 (ISO-8859-1); nothing was imported. Convert it to UTF-8 (${conversion(this.path)}), or save it again as UTF-8 (in Excel: "CSV UTF-8")`,
      );
    }
    return new ImportFileError(
      `${this.path} starts with a UTF-16 byte order mark but is not UTF-16 text ${where} (half a character, or a file cut short); nothing was imported. Save it again as UTF-8 from the program that made it`,
    );
  }
}

/** A file's whole text (one decode; refused as TextReader refuses it). */
export function wholeText(path: string, bytes: Buffer): string {
  try {
    return strict(encodingOf(bytes)).decode(bytes);
  } catch {
    // Decoded again in pieces, to say where.
    const reader = new TextReader(path);
    const text = reader.push(bytes);
    reader.end();
    return text;
  }
}

/** Nothing but white space (a byte order mark counts as such). */
const BLANK = /^\s*$/;

/** The text of a file's first bytes, for telling its format and whether it is blank: a character cut at the end is replaced, not refused. */
export const headText = (bytes: Uint8Array): string => new TextDecoder(encodingOf(bytes)).decode(bytes);

/** Whether these chunks of a file hold no text but white space; reads only up to the first other character. */
export async function isBlank(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<boolean> {
  let decoder: TextDecoder | undefined;
  for await (const chunk of chunks) {
    decoder ??= new TextDecoder(encodingOf(chunk));
    if (!BLANK.test(decoder.decode(chunk, { stream: true }))) return false;
  }
  return true;
}

export const isBlankText = (text: string): boolean => BLANK.test(text);
