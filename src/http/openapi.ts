/** The OpenAPI 3.1.0 document, generated from the route table and the zod schemas. */
import { HUB_BODY_BYTES, kb, MAX_HEADER_BYTES, MCP_BODY_BYTES, URL_LIMIT_TEXT } from '../limits.js';
import { z } from 'zod';
import { jsonSchemaOf, portableNullables, typedUnions } from '../core/schema/json-schema.js';
import type { Operation, ResponseDoc } from './operation.js';

type Json = Record<string, unknown>;

const EXAMPLE_REVIEW = {
  id: '01JQ8Z6D2V7C3X4MPE0000000A',
  author: 'Dana K.',
  author_avatar_url: null,
  rating: 5,
  date: '2026-03-14',
  text: 'Marco showed up on time, found the cracked heat exchanger fast and explained the price before starting.',
  source: 'google',
  source_url: null,
  owner_reply: { text: 'Thank you, Dana! We will pass this on to Marco.', date: '2026-03-15' },
  verified: true,
  source_id: 'AbFvOqmExampleReviewId',
  url: 'https://reviews.example.com/reviews/01JQ8Z6D2V7C3X4MPE0000000A',
};

/** JSON Schema for a zod schema, without the per-document keywords OpenAPI does not want inline. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const id = z.globalRegistry.get(schema)?.id;
  if (id && io === 'output') return { $ref: `#/components/schemas/${id}` };
  return jsonSchemaOf(schema, io);
}

function componentSchemas(): Json {
  const all = z.toJSONSchema(z.globalRegistry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' }) as { schemas: Record<string, Json> };
  for (const s of Object.values(all.schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  portableNullables(all.schemas);
  return all.schemas;
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [['path', op.params], ['query', op.query]] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const s = jsonSchema(field, 'input');
      const description = s.description;
      delete s.description;
      out.push({ name, in: where, required: where === 'path' || !field.safeParse(undefined).success, description, schema: s });
    }
  }
  if (op.conditional) {
    out.push(
      { name: 'If-None-Match', in: 'header', required: false, description: 'ETag(s) from an earlier response; 304 when one still matches', schema: { type: 'string' } },
      { name: 'If-Modified-Since', in: 'header', required: false, description: 'HTTP date; 304 when the data has not changed since (ignored when If-None-Match is sent)', schema: { type: 'string' } },
    );
  }
  return out;
}

const CONDITIONAL_HEADERS = {
  ETag: { description: 'Strong validator of this body (one per content coding)', schema: { type: 'string' } },
  'Last-Modified': { description: 'When the review data last changed', schema: { type: 'string' } },
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

function response(op: Operation, status: string, doc: ResponseDoc): Json {
  const out: Json = { description: doc.description };
  // A response without a schema, media type or example has no body (202, 204): it gets no content.
  if (doc.schema || doc.contentType || doc.example !== undefined) {
    const media: Json = {};
    if (doc.schema) media.schema = jsonSchema(doc.schema);
    if (doc.example !== undefined) media.example = doc.example;
    out.content = { [doc.contentType ?? 'application/json']: media, ...(doc.routerError ? errorContent : {}) };
  }
  const headers = {
    ...(op.conditional && status === '200' ? CONDITIONAL_HEADERS : {}),
    ...(op.topic && status === '200' ? { Link: { description: 'WebSub discovery: <hub>; rel="hub", <topic>; rel="self"', schema: { type: 'string' } } } : {}),
    ...doc.headers,
  };
  if (Object.keys(headers).length) out.headers = headers;
  return out;
}

const RATE_LIMIT_HEADERS = {
  'Retry-After': { description: 'Seconds until the client may send again', schema: { type: 'integer' } },
  RateLimit: { description: 'limit=<per minute>, remaining=<left>, reset=<seconds> (draft-ietf-httpapi-ratelimit-headers); sent on every answer', schema: { type: 'string' } },
  'RateLimit-Policy': { description: '<limit>;w=60', schema: { type: 'string' } },
};

const textContent = { 'text/plain': { schema: { type: 'string' } } };

const COMMON_RESPONSES: Json = {
  TooManyRequests: {
    description:
      'More requests from this client in a minute than RATE_LIMIT_PER_MINUTE allows (per replica), or more kilobytes of answers than RATE_LIMIT_COST_KB allows (65,536 KB by default, shared by replicas; an answer counts its size, one built for the request its uncompressed size); Retry-After says when to come back',
    headers: RATE_LIMIT_HEADERS,
    content: errorContent,
  },
  UriTooLong: { description: `The request target is longer than ${URL_LIMIT_TEXT}`, content: errorContent },
  UriTooLongText: { description: `The request target is longer than ${URL_LIMIT_TEXT}`, content: textContent },
  HeadersTooLarge: { description: `The request line and headers are larger than ${kb(MAX_HEADER_BYTES)} (answered before routing, so always JSON)`, content: errorContent },
  PayloadTooLarge: { description: `The body is larger than this endpoint takes (${kb(MCP_BODY_BYTES)} for /mcp)`, content: errorContent },
  PayloadTooLargeText: { description: `The body is larger than ${kb(HUB_BODY_BYTES)}`, content: textContent },
};

const TAGS: Record<string, string> = {
  Datasets: 'Whole documents, rebuilt once per data change: every review with the business profile, and the insights',
  Reviews: 'Searching the reviews and reading those since a date',
  Feeds: 'Atom and JSON Feed 1.1 of the newest reviews; both are WebSub topics',
  WebSub: 'The WebSub hub: subscribe a callback to a topic and receive each change',
  MCP: 'The Model Context Protocol endpoint (streamable HTTP) with read-only tools',
  Service: 'This description, health and metrics',
  Widget: 'The review widget for other websites: the web component, its data and the page to frame',
};

/** Every GET is also served as HEAD (fastify's HEAD routes): the same answer without a body. */
function headOf(get: Json): Json {
  const responses: Json = {};
  for (const [status, res] of Object.entries(get.responses as Record<string, Json>)) {
    const rest = { ...res };
    delete rest.content;
    responses[status] = rest;
  }
  return {
    ...get,
    operationId: `${String(get.operationId)}Head`,
    summary: `${String(get.summary)} (headers only)`,
    description: 'The same answer as GET, status and headers included, without the body.',
    responses,
  };
}

const EXAMPLES: Record<string, unknown> = {
  searchReviews: { matched: 1, returned: 1, reviews: [EXAMPLE_REVIEW], next_cursor: null },
  getReviewsSince: { since: '2026-03-01', count: 1, reviews: [EXAMPLE_REVIEW] },
};

/** The OpenAPI 3.1.0 document for the operations given, served at /.well-known/openapi.json. */
export function buildOpenApi(operations: readonly Operation[], baseUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    if (op.hidden) continue;
    const responses: Json = {};
    for (const [status, doc] of Object.entries(op.responses)) {
      const example = status === '200' ? EXAMPLES[op.operationId] : undefined;
      responses[status] = response(op, status, example !== undefined && doc.example === undefined ? { ...doc, example } : doc);
    }
    if (op.conditional) responses['304'] = { description: 'Not Modified: the validator sent still matches; empty body' };
    // What the service answers before any endpoint sees the request; the hub answers in plain text.
    const hub = op.plainTextErrors === true;
    if (op.requestBody) responses['413'] ??= { $ref: `#/components/responses/${hub ? 'PayloadTooLargeText' : 'PayloadTooLarge'}` };
    responses['414'] ??= { $ref: `#/components/responses/${hub ? 'UriTooLongText' : 'UriTooLong'}` };
    responses['431'] ??= { $ref: '#/components/responses/HeadersTooLarge' };
    responses['429'] = hub ? { ...(responses['429'] as Json), headers: RATE_LIMIT_HEADERS } : { $ref: '#/components/responses/TooManyRequests' };
    const params = parameters(op);
    const entry: Json = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      ...(params.length ? { parameters: params } : {}),
      ...(op.requestBody
        ? { requestBody: { required: true, description: op.requestBody.description, content: { [op.requestBody.contentType]: { schema: op.requestBody.schema ?? {} } } } }
        : {}),
      responses,
    };
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: entry, ...(op.method === 'GET' ? { head: headOf(entry) } : {}) };
  }
  const schemas = componentSchemas();
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Reviewcast',
      version: '1.0.0',
      summary: "One business's customer reviews, read-only.",
      description:
        'A public, read-only API over one business\'s customer reviews: JSON datasets, search, feeds, an MCP endpoint and a WebSub hub. No authentication; an Authorization header is ignored. Errors use the `Error` schema with a stable `error` code.',
      contact: { name: 'API documentation', url: `${baseUrl}/developers` },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    // Public and read-only: no operation takes credentials.
    security: [],
    tags: [...new Set(operations.filter((o) => !o.hidden).map((o) => o.tag))].map((name) => ({ name, description: TAGS[name] })),
    paths,
    components: { schemas, responses: COMMON_RESPONSES },
  };
  typedUnions(doc, schemas as Record<string, { type?: unknown }>);
  return doc;
}
