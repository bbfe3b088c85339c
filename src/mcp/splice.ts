/** Large JSON strings put into an MCP answer after the SDK has serialised it, rather than serialised again by it. */
import { randomBytes } from 'node:crypto';

/**
 * A resource of megabytes (/reviews.json) would be escaped and copied several times over by the
 * SDK on every read. Instead the handler answers with a placeholder, and the serialised answer
 * gets the bytes escaped once per revision in its place, sent as they are kept: no copy per read.
 * Placeholders carry 128 random bits per request, so no content can forge one.
 */
export class Splices {
  private readonly nonce = randomBytes(16).toString('hex');
  private readonly bodies: Buffer[] = [];

  /** The placeholder to put where the string belongs; `escaped` is that string as a JSON literal, quotes included. */
  add(escaped: Buffer): string {
    this.bodies.push(escaped);
    return `rc-splice:${this.nonce}:${this.bodies.length - 1}`;
  }

  /**
   * The serialised answer with each placeholder (a JSON string of plain characters) replaced by
   * its bytes, as the buffers to send in order: the escaped documents go out as they are kept,
   * not copied into one answer per read.
   */
  apply(answer: Buffer): Buffer[] {
    if (this.bodies.length === 0) return [answer];
    const parts: Buffer[] = [];
    let from = 0;
    this.bodies.forEach((body, i) => {
      const literal = `"rc-splice:${this.nonce}:${i}"`;
      const at = answer.indexOf(literal, from);
      // An answer that dropped the placeholder (an error instead of the result) has nothing to put back.
      if (at < 0) return;
      parts.push(answer.subarray(from, at), body);
      from = at + Buffer.byteLength(literal);
    });
    parts.push(answer.subarray(from));
    return parts;
  }
}
