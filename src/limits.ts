/**
 * The request size limits, defined once: the gate, Node and fastify enforce them; the error
 * catalogue, the OpenAPI document and the developer page state them from here.
 */

/** Longer request targets are refused with 414 before any routing. */
export const MAX_URL_BYTES = 8192;
/** The request line and headers together (Node answers 431 beyond it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A JSON-RPC message is small; /mcp is the only endpoint taking a body besides the hub. */
export const MCP_BODY_BYTES = 64 * 1024;
/** A subscription request is a short form. */
export const HUB_BODY_BYTES = 16 * 1024;

/** "8,192 bytes": the URL limit as the docs state it. */
export const URL_LIMIT_TEXT = `${MAX_URL_BYTES.toLocaleString('en')} bytes`;

/** "16 KB": a whole number of KiB, as the docs state the other limits. */
export function kb(bytes: number): string {
  return `${bytes / 1024} KB`;
}
