// The JSON API over real HTTP: datasets, conditional requests, coding, error answers (with their CORS headers) and the OpenAPI document.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ERROR_CATALOGUE } from '../src/http/errors.js';
import { toolList } from '../src/mcp/catalogue.js';
import { readFileSync } from 'node:fs';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { ROOT, startTestService, type TestService } from './helpers.js';

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
});
after(() => svc.close());

/** Raw HTTP (fetch would decompress and hide Content-Encoding). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${svc.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const DATASET_PATHS = ['/reviews.json', '/api/reviews/since/2026-01-01', '/api/reviews/search?rating=5'];

describe('GET /reviews.json', () => {
  it('holds business, aggregate rating and every review newest first', async () => {
    const res = await fetch(`${svc.url}/reviews.json`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { business: unknown; aggregate_rating: Record<string, unknown>; reviews: { date: string }[] };
    assert.equal((body.business as { name: string }).name, BUSINESS.name);
    assert.deepEqual(body.aggregate_rating, {
      rating_value: 3.63,
      review_count: 8,
      best_rating: 5,
      worst_rating: 1,
      distribution: { '1': 1, '2': 1, '3': 1, '4': 2, '5': 3 },
    });
    assert.equal(body.reviews.length, 8);
    const dates = body.reviews.map((r) => r.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
    for (const r of body.reviews as unknown as { id: string; url: string }[]) assert.equal(r.url, `${svc.url}/reviews/${r.id}`);
    const since = (await (await fetch(`${svc.url}/api/reviews/since/2026-01-01`)).json()) as { reviews: { id: string; url: string }[] };
    assert.equal(since.reviews.length, 8);
    for (const r of since.reviews) assert.equal(r.url, `${svc.url}/reviews/${r.id}`);
  });
});

describe('conditional requests', () => {
  for (const path of DATASET_PATHS) {
    it(`${path}: strong ETag and Last-Modified; If-None-Match and If-Modified-Since give 304 with no body`, async () => {
      const first = await raw(path);
      assert.equal(first.status, 200);
      const etag = first.headers.etag as string;
      const lm = first.headers['last-modified'] as string;
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      assert.ok(!Number.isNaN(Date.parse(lm)));

      const hit = await raw(path, { 'if-none-match': etag });
      assert.equal(hit.status, 304);
      assert.equal(hit.body.length, 0);
      assert.equal(hit.headers.etag, etag);

      assert.equal((await raw(path, { 'if-none-match': `"nope", W/${etag}` })).status, 304, 'weak form inside a list');
      assert.equal((await raw(path, { 'if-none-match': '*' })).status, 304);
      assert.equal((await raw(path, { 'if-none-match': '"other"' })).status, 200);

      assert.equal((await raw(path, { 'if-modified-since': lm })).status, 304);
      const earlier = new Date(Date.parse(lm) - 1000).toUTCString();
      assert.equal((await raw(path, { 'if-modified-since': earlier })).status, 200);
      assert.equal((await raw(path, { 'if-modified-since': 'not a date' })).status, 200);
      // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
      assert.equal((await raw(path, { 'if-none-match': '"other"', 'if-modified-since': lm })).status, 200);
    });
  }
  it('an ETag from one content coding validates the others', async () => {
    const br = await raw('/reviews.json', { 'accept-encoding': 'br' });
    assert.match(br.headers.etag as string, /-br"$/);
    assert.equal((await raw('/reviews.json', { 'if-none-match': br.headers.etag as string })).status, 304);
  });
  it('a new revision changes the ETag', async () => {
    const other = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 3) });
    try {
      const before = (await fetch(`${other.url}/reviews.json`)).headers.get('etag')!;
      await other.store.importReviews({ reviews: REVIEWS.slice(3, 4), replace: false, dryRun: false });
      await other.server.live.refresh();
      const res = await fetch(`${other.url}/reviews.json`, { headers: { 'if-none-match': before } });
      assert.equal(res.status, 200);
      assert.notEqual(res.headers.get('etag'), before);
    } finally {
      await other.close();
    }
  });
});

describe('answers kept per body (the fast path)', () => {
  it('the same request after a new revision gets the new body, and each answer its own RateLimit count', async () => {
    const other = await startTestService({ business: BUSINESS, reviews: REVIEWS.slice(0, 3) });
    try {
      const ask = () => fetch(`${other.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
      const first = await ask();
      const firstBody = await first.text();
      const again = await ask();
      assert.equal(await again.text(), firstBody);
      assert.equal(again.headers.get('etag'), first.headers.get('etag'));
      const remaining = (res: Response) => Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit')!)![1]);
      assert.equal(remaining(again), remaining(first) - 1, 'the RateLimit header is made per request, not kept with the answer');
      await other.store.importReviews({ reviews: REVIEWS.slice(3, 4), replace: false, dryRun: false });
      await other.server.live.refresh();
      const after = await ask();
      assert.notEqual(after.headers.get('etag'), first.headers.get('etag'));
      assert.notEqual(await after.text(), firstBody);
    } finally {
      await other.close();
    }
  });
});

describe('HEAD, compression and headers', () => {
  for (const path of DATASET_PATHS) {
    it(`${path}: HEAD has GET's headers and no body`, async () => {
      const get = await raw(path);
      const head = await raw(path, {}, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      assert.equal(head.headers.etag, get.headers.etag);
      assert.equal(head.headers['content-type'], get.headers['content-type']);
      assert.equal(head.headers['content-length'], String(get.body.length));
      assert.equal((await raw(path, { 'if-none-match': get.headers.etag as string }, 'HEAD')).status, 304);
    });
  }
  it('negotiates br, gzip and identity, with Vary', async () => {
    const plain = await raw('/reviews.json');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const br = await raw('/reviews.json', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.ok(br.body.length < plain.body.length);
    const gz = await raw('/reviews.json', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const refused = await raw('/reviews.json', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    assert.equal(refused.headers['content-encoding'], undefined);
    const preferGzip = await raw('/reviews.json', { 'accept-encoding': 'br;q=0.5, gzip;q=1' });
    assert.equal(preferGzip.headers['content-encoding'], 'gzip');
  });
  it('sends CORS and caching headers on public GETs', async () => {
    const res = await raw('/reviews.json');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(res.headers['cache-control'] as string, /public, max-age=\d+/);
    const pre = await raw('/reviews.json', { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' }, 'OPTIONS');
    assert.equal(pre.status, 204);
    assert.match(pre.headers['access-control-allow-headers'] as string, /If-None-Match/);
  });
  it('ignores an Authorization header', async () => {
    const res = await raw('/reviews.json', { authorization: 'Bearer whatever' });
    assert.equal(res.status, 200);
  });
});

describe('errors', () => {
  it('unknown paths get a JSON 404', async () => {
    const res = await raw('/nope');
    assert.equal(res.status, 404);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    assert.equal(JSON.parse(res.body.toString()).error, 'not_found');
  });
  it('a wrong method on a known path gets 405 with Allow', async () => {
    const res = await raw('/reviews.json', {}, 'DELETE');
    assert.equal(res.status, 405);
    assert.match(res.headers.allow as string, /GET, HEAD/);
    assert.equal(JSON.parse(res.body.toString()).error, 'method_not_allowed');
    assert.equal((await raw('/api/reviews/since/2026-01-01', {}, 'POST')).status, 405);
  });
  it('JSON errors of the public read API carry its CORS headers, so a page on another site reads them; MCP, the hub and the service endpoints are not opened by this', async () => {
    const origin = { origin: 'https://widget-host.example' };
    const ok = await raw('/api/reviews/search?rating=5', origin);
    const cases: [string, string, number, string][] = [
      ['GET', '/api/reviews/search?rating=9', 400, 'validation_error'],
      ['GET', '/api/reviews/search?colour=red', 400, 'validation_error'],
      ['GET', `/api/reviews/search?cursor=${'x'.repeat(40)}`, 400, 'validation_error'],
      ['GET', '/api/reviews/since/2026-02-30', 400, 'validation_error'],
      ['GET', '/api/reviews/since/2026-01-01?limit=5', 400, 'validation_error'],
      ['GET', '/api/reviews/since/%FF', 400, 'bad_request'],
      ['GET', '/embed.json?layout=spiral', 400, 'validation_error'],
      ['GET', `/api/reviews/search?query=${'a'.repeat(9000)}`, 414, 'uri_too_long'],
      ['GET', '/nope', 404, 'not_found'],
      ['POST', '/api/reviews/search', 405, 'method_not_allowed'],
      ['DELETE', '/reviews.json', 405, 'method_not_allowed'],
    ];
    for (const [method, path, status, code] of cases) {
      const what = `${method} ${path.slice(0, 60)}`;
      const res = await raw(path, origin, method);
      assert.equal(res.status, status, what);
      assert.equal(JSON.parse(res.body.toString()).error, code, what);
      assert.equal(res.headers['access-control-allow-origin'], '*', what);
      assert.equal(res.headers['access-control-expose-headers'], ok.headers['access-control-expose-headers'], `${what}: exposes what the answers expose`);
    }
    // The option refused is readable: the issue names it.
    const refused = JSON.parse((await raw('/embed.json?layout=spiral', origin)).body.toString()) as { issues: { parameter: string }[] };
    assert.deepEqual(refused.issues.map((i) => i.parameter), ['layout']);
    // MCP admits origins itself, the hub and the service endpoints are for servers: none gets "*".
    for (const [method, path] of [['PUT', '/mcp'], ['POST', '/mcp'], ['GET', '/api/websub/hub'], ['POST', '/healthz'], ['POST', '/metrics']] as const) {
      const res = await raw(path, { origin: 'https://evil.example' }, method);
      assert.ok(res.status >= 400, `${method} ${path}`);
      assert.notEqual(res.headers['access-control-allow-origin'], '*', `${method} ${path}`);
    }
  });
  it('a 429 of the public read API carries its CORS headers, and exposes Retry-After', async () => {
    const limited = await startTestService({ business: BUSINESS, reviews: REVIEWS, http: { rateLimitPerMinute: 1 } });
    try {
      const ask = () => fetch(`${limited.url}/api/reviews/search?rating=5`, { headers: { origin: 'https://widget-host.example' } });
      assert.equal((await ask()).status, 200);
      const res = await ask();
      assert.equal(res.status, 429);
      assert.equal(((await res.json()) as { error: string }).error, 'too_many_requests');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('access-control-expose-headers')!, /\bRetry-After\b/);
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
    } finally {
      await limited.close();
    }
  });
  it('docs/errors.md states the catalogue: every code, its status and its meaning, and nothing else', () => {
    const doc = readFileSync(`${ROOT}/docs/errors.md`, 'utf8');
    const documented = Object.fromEntries([...doc.matchAll(/^\| `(\w+)` \| (\d+) \| (.+?) \|$/gm)].map(([, code, status, meaning]) => [code, { status: Number(status), meaning }]));
    assert.deepEqual(documented, ERROR_CATALOGUE);
  });
  it('docs/api.md lists every path of the OpenAPI document with the methods it describes, and the server answers each', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const md = readFileSync(`${ROOT}/docs/api.md`, 'utf8');
    const table = Object.fromEntries([...md.matchAll(/^\| ([A-Z, ]+) \| `([^`]+)` \|/gm)].map(([, methods, path]) => [path!, methods!.split(', ').sort()]));
    const described = Object.fromEntries(Object.entries(doc.paths).map(([path, ops]) => [path, Object.keys(ops).map((m) => m.toUpperCase()).sort()]));
    assert.deepEqual(table, described);
    // What the document says is what is routed: each method answers something other than 404 or 405.
    const concrete = (path: string) => path.replace('{date}', '2026-01-01').replace('{id}', REVIEWS[0]!.id);
    for (const [path, methods] of Object.entries(described)) {
      for (const method of methods) {
        const status = (await raw(concrete(path), {}, method)).status;
        assert.ok(status !== 404 && status !== 405, `${method} ${path}: ${status}`);
      }
    }
  });
  it('every address the API, operations, MCP and development docs name is one the service answers', async () => {
    const paths = new Set<string>();
    for (const file of ['api.md', 'operations.md', 'mcp.md', 'development.md']) {
      const md = readFileSync(`${ROOT}/docs/${file}`, 'utf8');
      // A path of the service in code quotes: `/x`, `/x/{param}`; files on the machine (/usr/bin/...) are not.
      for (const [, path] of md.matchAll(/`(\/[^`\s]*)`/g)) if (!/^\/(usr|etc|tmp|var|dev|opt)\//.test(path!)) paths.add(path!.split('?')[0]!);
    }
    assert.ok(paths.has('/.well-known/openapi.json') && paths.has('/metrics'), [...paths].join(' '));
    for (const path of paths) {
      const res = await raw(path.replace('{date}', '2026-01-01').replace('{id}', REVIEWS[0]!.id));
      assert.notEqual(res.status, 404, `${path} is named in the docs but answers 404`);
    }
  });
  it('/healthz reports the revision', async () => {
    const body = (await (await fetch(`${svc.url}/healthz`)).json()) as { status: string; revision: number; reviews: number };
    assert.equal(body.status, 'ok');
    assert.equal(body.reviews, 8);
    assert.ok(body.revision >= 1);
  });
});

describe('GET /.well-known/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document describing every endpoint', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: { minimum?: number; maximum?: number; default?: unknown } }[] }>>;
    };
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    for (const path of ['/reviews.json', '/api/reviews/search', '/api/reviews/since/{date}', '/feed.xml', '/api/feed.json', '/insights.json']) assert.ok(doc.paths[path]?.get, path);
    assert.ok(doc.paths['/api/websub/hub']?.post, 'hub');
    const params = doc.paths['/api/reviews/search']!.get!.parameters!;
    const limit = params.find((p) => p.name === 'limit')!;
    assert.deepEqual([limit.in, limit.schema.minimum, limit.schema.maximum, limit.schema.default], ['query', 1, 100, 20]);
    const rating = params.find((p) => p.name === 'rating')!;
    assert.deepEqual([rating.schema.minimum, rating.schema.maximum], [1, 5]);
    assert.deepEqual(params.filter((p) => p.in === 'query').map((p) => p.name).sort(), ['cursor', 'limit', 'mentions_service', 'mentions_technician', 'min_rating', 'query', 'rating', 'since', 'sort', 'until', 'with_reply', 'with_text']);
  });
  it('describes /insights.json aspects in the order they come: the taxonomy, then the profile\'s own', async () => {
    const withOwn = await startTestService({
      business: { ...BUSINESS, custom_aspects: [{ id: 'parking', label: 'Parking', cues: ['parking'], positive: [], negative: [] }, { id: 'boots', label: 'Boot covers', cues: ['boot covers'], positive: [], negative: [] }] },
      reviews: REVIEWS,
    });
    try {
      const doc = (await (await fetch(`${withOwn.url}/.well-known/openapi.json`)).json()) as { components: { schemas: { Insights: { properties: { aspects: { description: string } } } } } };
      const description = doc.components.schemas.Insights.properties.aspects.description;
      const taxonomy = /in its fixed order \(([^)]+)\), then the business profile's custom_aspects in the profile's order/.exec(description)?.[1]?.split(', ');
      assert.ok(taxonomy, description);
      const insights = (await (await fetch(`${withOwn.url}/insights.json`)).json()) as { aspects: { id: string; mention_count: number }[] };
      assert.deepEqual(insights.aspects.map((a) => a.id), [...taxonomy, 'parking', 'boots']);
      // Not by mentions: in these reviews the order differs, and unmentioned aspects are listed with 0.
      const counts = insights.aspects.map((a) => a.mention_count);
      assert.notDeepEqual(counts, [...counts].sort((a, b) => b - a));
      assert.ok(counts.includes(0));
      // /developers shows the same description, from the same schema.
      const page = await (await fetch(`${withOwn.url}/developers`)).text();
      assert.ok(page.includes(description.replaceAll("'", '&#39;')), 'the data-model table on /developers');
    } finally {
      await withOwn.close();
    }
  });
  it('says what linters and clients ask: no auth, contact, tag descriptions, HEAD, valid examples, empty answers without content, portable nullables', async () => {
    type Media = { schema?: Record<string, unknown>; example?: unknown };
    type Op = { operationId: string; responses: Record<string, { content?: Record<string, Media> }> };
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as {
      security: unknown[];
      info: { contact?: { url?: string } };
      tags: { name: string; description?: string }[];
      paths: Record<string, Record<string, Op>>;
      components: Record<string, unknown>;
    };
    assert.deepEqual(doc.security, []);
    assert.ok(doc.info.contact?.url?.startsWith(svc.url));
    for (const t of doc.tags) assert.ok(t.description, t.name);
    for (const [path, ops] of Object.entries(doc.paths)) if (ops.get) assert.ok(ops.head, `HEAD ${path}`);
    assert.equal(doc.paths['/reviews.json']!.head!.responses['200']!.content, undefined, 'HEAD has no body');
    assert.equal(doc.paths['/mcp']!.post!.responses['202']!.content, undefined);
    assert.equal(doc.paths['/mcp']!.delete!.responses['204']!.content, undefined);
    const ajv = new Ajv2020({ strict: false });
    (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
    let examples = 0;
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const res of Object.values(op.responses)) {
          for (const media of Object.values(res.content ?? {})) {
            if (media.example === undefined || !media.schema) continue;
            examples++;
            const validate = ajv.compile({ ...media.schema, components: doc.components });
            assert.ok(validate(media.example), `${op.operationId}: ${JSON.stringify(validate.errors)}`);
          }
        }
      }
    }
    assert.ok(examples >= 2);
    // Nullables are anyOf with a null branch. MCP clients flag type arrays as less portable, so the
    // tool schemas have none; in the OpenAPI document a type array only repeats, beside its anyOf,
    // the branches' types (Scalar's schema model wants a type on every schema).
    assert.equal(JSON.stringify(toolList()).match(/"type":\[/g), null, 'MCP tool schemas: nullable fields are anyOf, not type arrays');
    const typeArrays: unknown[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { type?: unknown; anyOf?: { type?: unknown; $ref?: string }[] };
      if (Array.isArray(schema.type) && schema.type.includes('null') && !schema.anyOf?.some((b) => b.type === 'null')) typeArrays.push(node);
      for (const value of Object.values(node)) walk(value);
    };
    walk(doc);
    assert.deepEqual(typeArrays, [], 'OpenAPI: nullable fields are anyOf; a type array only beside one');
  });
});
