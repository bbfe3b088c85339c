/** The CORS headers of the public read API: on its answers and on its errors alike, so a page on another site (the review widget) reads both. */
export const PUBLIC_CORS = {
  'access-control-allow-origin': '*',
  // Retry-After too: a client refused (429) reads when to come back.
  'access-control-expose-headers': 'ETag, Link, Content-Encoding, Retry-After',
} as const;
