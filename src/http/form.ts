/** The form-body and query-string parsers: strict percent-decoding, so a value is never taken as other text than was sent. */

/** A body refused before any handler: answered 400 with its message. */
class FormError extends Error {
  readonly statusCode = 400;
}

/** One name=value pair of application/x-www-form-urlencoded text: raw, and decoded (null when not valid percent-encoded UTF-8). */
interface Pair {
  rawKey: string;
  rawValue: string;
  key: string | null;
  value: string | null;
}

function* pairsOf(text: string): Generator<Pair> {
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    yield { rawKey, rawValue, key: decode(rawKey), value: decode(rawValue) };
  }
}

/** Repeated names become arrays, as fast-querystring makes them. */
function add(out: Record<string, string | string[]>, key: string, value: string): void {
  const prev = out[key];
  out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

/**
 * Parses application/x-www-form-urlencoded. A hub.* value that is not valid percent-encoded
 * UTF-8 (`hub.secret=%FF`) is refused: the lenient parser would keep "%FF" as literal text and
 * sign deliveries with a key the subscriber never meant. Other fields with bad encoding are
 * dropped (unknown fields are ignored, WebSub §5.1).
 */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const { key, value } of pairsOf(body)) {
    if (key === null) continue;
    if (value === null) {
      if (key.startsWith('hub.')) throw new FormError(`${key} is not valid percent-encoded UTF-8`);
      continue;
    }
    add(out, key, value);
  }
  return out;
}

/** Where a parsed query lists the parameters whose name or value is not valid percent-encoded UTF-8. */
export const UNDECODABLE: unique symbol = Symbol('undecodable query parameters');
export type ParsedQuery = Record<string, string | string[]> & { [UNDECODABLE]?: string[] };

/**
 * fastify's query-string parser. fast-querystring keeps what it cannot decode as raw text, so
 * `query=%FF` searched for the literal "%FF"; this one decodes as strictly as the hub does and
 * lists each such parameter under UNDECODABLE, which validateParams refuses (400). The raw text
 * is still the value, so pages, which leave out what they cannot use, read it as before.
 */
export function parseQuery(query: string): ParsedQuery {
  const out: ParsedQuery = Object.create(null) as ParsedQuery;
  for (const { rawKey, rawValue, key, value } of pairsOf(query)) {
    const name = key ?? rawKey;
    if (key === null || value === null) (out[UNDECODABLE] ??= []).push(name);
    add(out, name, value ?? rawValue);
  }
  return out;
}

function decode(component: string): string | null {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
