/** The form-body parser: strict percent-decoding for the hub's fields, so a value is never taken as other text than was sent. */

/** A body refused before any handler: answered 400 with its message. */
class FormError extends Error {
  readonly statusCode = 400;
}

/**
 * Parses application/x-www-form-urlencoded (repeated names become arrays, as fast-querystring
 * does). A hub.* value that is not valid percent-encoded UTF-8 (`hub.secret=%FF`) is refused:
 * the lenient parser would keep "%FF" as literal text and sign deliveries with a key the
 * subscriber never meant. Other fields with bad encoding are dropped (unknown fields are ignored, WebSub §5.1).
 */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    if (key === null) continue;
    const value = decode(rawValue);
    if (value === null) {
      if (key.startsWith('hub.')) throw new FormError(`${key} is not valid percent-encoded UTF-8`);
      continue;
    }
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
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
