import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, unknown>;

interface OpDoc {
  path: string;
  method: string;
  parameters: { name: string; in: string; schema: Json }[];
  requestBody?: string;
  responses: Record<string, Json>;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The documented operation this request is aimed at, when its method is the documented one. */
  op: OpDoc | null;
  /** The operation whose path it is, whatever the method. */
  target: OpDoc;
}

export interface FuzzFinding {
  request: string;
  status: number;
  problem: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<string, number>;
  findings: FuzzFinding[];
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Odd strings: huge, control characters, broken and overlong percent-encodings, other scripts, numbers at the edges. */
const oddText = fc.oneof(
  fc.constantFrom('', ' ', '%00', '%', '%ZZ', '%E0%A4%A', '%C0%AF', '..%2F..%2Fetc%2Fpasswd', '💥', 'İ', '\u0000', 'NaN', 'Infinity', '-0', '1e309', '0x10', '[]', '{}', 'true', 'null', '2024-02-30', '2024-13-01', '9999-99-99', '2024-1-1'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.integer({ min: 1000, max: 9000 }).map((n) => 'x'.repeat(n)),
);

function valueFor(schema: Json): fc.Arbitrary<string> {
  const type = schema.type;
  if (type === 'integer') return fc.integer({ min: Number(schema.minimum ?? -5), max: Number(schema.maximum ?? 200) }).map(String);
  if (type === 'number') return fc.double({ min: Number(schema.minimum ?? -5), max: Number(schema.maximum ?? 200), noNaN: true }).map(String);
  if (schema.format === 'date' || /\\d\{4\}/.test(String(schema.pattern ?? ''))) {
    return fc.date({ min: new Date('2020-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  }
  return fc.oneof(fc.constantFrom('on time', 'Al', 'ac_repair', 'drain', 'AC'), fc.string({ minLength: 1, maxLength: 30 }));
}

/**
 * Percent-encodes, except sometimes: raw odd bytes test the server's own decoding. A backslash is
 * always encoded: the client's URL parser would turn it into a slash, another path than the one meant.
 */
const encode = (s: string, raw: boolean) => (raw ? s.replace(/[\s#?&/\\]/g, encodeURIComponent) : encodeURIComponent(s));

/** A path segment that is not a dot segment: the client's URL parser drops "." and ".." (even encoded), which would ask for another path. */
const notDotSegment = (segment: string) => (/^(?:\.|%2e){1,2}$/i.test(segment) ? `${segment}~` : segment);

function queryArb(op: OpDoc): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const one = (p: { name: string; schema: Json }) =>
    fc.tuple(fc.constant(p.name), fc.oneof({ weight: 3, arbitrary: valueFor(p.schema) }, { weight: 2, arbitrary: oddText }), fc.boolean());
  const pairs = fc.tuple(
    fc.subarray(params).chain((chosen) => (chosen.length ? fc.tuple(...chosen.map(one)) : fc.constant([] as [string, string, boolean][]))),
    // Unknown and repeated parameters.
    fc.array(fc.tuple(fc.oneof(fc.constantFrom('foo', 'limit', 'rating', '', 'query[]', '__proto__', 'constructor'), fc.string({ maxLength: 8 })), oddText, fc.boolean()), { maxLength: 3 }),
  );
  return pairs.map(([known, extra]) => {
    const all = [...known, ...extra];
    return all.length ? `?${all.map(([k, v, raw]) => `${encode(k, false)}=${encode(v, raw)}`).join('&')}` : '';
  });
}

function pathArb(op: OpDoc): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'path');
  if (params.length === 0) return fc.constant(op.path);
  return fc.tuple(...params.map((p) => fc.tuple(fc.constant(p.name), fc.oneof(valueFor(p.schema), oddText), fc.boolean()))).map((vals) =>
    vals.reduce((path, [name, v, raw]) => path.replace(`{${name}}`, notDotSegment(encode(v, raw) || '%20')), op.path),
  );
}

const rpc = fc.oneof(
  fc.constant({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }),
  fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: fc.constantFrom('tools/call', 'tools/list', 'ping', 'initialize', 'resources/read', 'nope', ''), params: fc.anything() }, { requiredKeys: [] }),
  fc.anything(),
);

function bodyArb(op: OpDoc): fc.Arbitrary<{ body?: string; type?: string }> {
  const type = fc.oneof(fc.constant(op.requestBody ?? 'application/json'), fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', ''));
  const form = fc
    .array(fc.tuple(fc.constantFrom('hub.mode', 'hub.topic', 'hub.callback', 'hub.secret', 'hub.lease_seconds', 'x'), fc.oneof(fc.constantFrom('subscribe', 'unsubscribe', 'https://example.com/cb', 'http://127.0.0.1/', 'https://10.0.0.1/'), oddText)), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const body = fc.oneof(rpc.map((v) => JSON.stringify(v) ?? 'null'), form, oddText, fc.constant('{"jsonrpc":"2.0",'), fc.constant('[]'));
  return fc.record({ body: fc.option(body, { nil: undefined }), type: fc.option(type, { nil: undefined }) });
}

const mcpHeaders = fc.record(
  {
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*', 'text/html'),
    'mcp-session-id': fc.oneof(fc.string({ maxLength: 20 }), fc.constant('abc.1.def')),
    'mcp-protocol-version': fc.constantFrom('2025-06-18', '2024-11-05', '1999-01-01', ''),
    origin: fc.constantFrom('https://evil.example', 'null'),
  },
  { requiredKeys: [] },
);

/** Reads the served OpenAPI document into operations and response validators. */
export async function loadContract(baseUrl: string) {
  const doc = (await (await fetch(`${baseUrl}/.well-known/openapi.json`)).json()) as Json & { paths: Record<string, Record<string, Json>> };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const ops: OpDoc[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        path,
        method: method.toUpperCase(),
        parameters: (op.parameters as OpDoc['parameters'] | undefined) ?? [],
        requestBody: Object.keys(((op.requestBody as Json | undefined)?.content as Json | undefined) ?? {})[0],
        responses: op.responses as Record<string, Json>,
      });
    }
  }
  const validators = new Map<string, ValidateFunction>();
  const components = (doc.components as Json).responses as Record<string, Json>;
  /** The documented response for a status, with $refs to shared responses followed. */
  const responseDoc = (op: OpDoc, status: number): Json | undefined => {
    const r = op.responses[String(status)];
    const ref = r?.$ref as string | undefined;
    return ref ? components[ref.split('/').at(-1)!] : r;
  };
  const validator = (op: OpDoc, status: number, type: string): ValidateFunction | null => {
    const r = responseDoc(op, status);
    const content = (r?.content as Record<string, Json> | undefined) ?? {};
    const media = Object.entries(content).find(([t]) => t.split(';')[0]!.trim() === type)?.[1]?.schema as Json | undefined;
    if (!media) return null;
    const key = `${op.method} ${op.path} ${status} ${type}`;
    if (!validators.has(key)) validators.set(key, ajv.compile(wrap(media)));
    return validators.get(key)!;
  };
  // Schemas in the document refer to #/components/schemas/...; wrapping rewrites them to the added document.
  const wrap = (schema: Json): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as Json;
  const errorValidator = ajv.compile({ $ref: 'openapi#/components/schemas/Error' });
  return { ops, responseDoc, validator, errorValidator };
}

/**
 * Generated from the served OpenAPI document: requests to every operation with valid and
 * invalid parameters, odd encodings, huge values, repeated and unknown parameters, other
 * methods, bodies and content types (forms for the hub, JSON-RPC for /mcp). Every answer must
 * be below 500, carry a status documented for the operation (405 for another method), match
 * the documented schema, and a JSON 4xx must be the documented Error body.
 */
export async function fuzzContract(baseUrl: string, opts: { requests: number; seed?: number }): Promise<FuzzReport> {
  const contract = await loadContract(baseUrl);
  const reqArb: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...contract.ops).chain((target) =>
    fc
      .record({
        method: fc.oneof({ weight: 6, arbitrary: fc.constant(target.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
        path: pathArb(target),
        query: queryArb(target),
        body: bodyArb(target),
        mcp: mcpHeaders,
        conditional: fc.option(fc.constantFrom('*', '"nope"', 'W/"x"', ''), { nil: undefined }),
        encoding: fc.option(fc.constantFrom('gzip', 'br', 'identity;q=0', '*', 'compress, x;q=nope'), { nil: undefined }),
      })
      .map(({ method, path, query, body, mcp, conditional, encoding }) => {
        const headers: Record<string, string> = {};
        if (target.path === '/mcp') Object.assign(headers, mcp);
        if (conditional !== undefined) headers['if-none-match'] = conditional;
        if (encoding !== undefined) headers['accept-encoding'] = encoding;
        const sendsBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        if (sendsBody && body.type) headers['content-type'] = body.type;
        const op = contract.ops.find((o) => o.path === target.path && o.method === (method === 'HEAD' ? 'GET' : method)) ?? null;
        return { method, path: `${path}${query}`, headers, body: sendsBody ? (body.body ?? '') : undefined, op, target };
      }),
  );

  const report: FuzzReport = { requests: 0, byStatus: {}, findings: [] };
  const samples = fc.sample(reqArb, { numRuns: opts.requests, seed: opts.seed ?? 42 });
  for (const r of samples) {
    const label = `${r.method} ${r.path.slice(0, 200)}${r.body !== undefined ? ` body=${r.body.slice(0, 80)}` : ''} ${JSON.stringify(r.headers).slice(0, 200)}`;
    let status = 0;
    try {
      const res = await request(`${baseUrl}${r.path}`, { method: r.method as 'GET', headers: r.headers, body: r.body });
      status = res.statusCode;
      const raw = Buffer.from(await res.body.arrayBuffer());
      const coding = res.headers['content-encoding'];
      const text = (raw.length === 0 ? raw : coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      report.requests++;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
      const problem = check(contract, r, status, type, text, res.headers);
      if (problem) report.findings.push({ request: label, status, problem });
    } catch (err) {
      report.requests++;
      // undici refuses to send some generated requests (invalid header values): not the server's doing.
      if ((err as { code?: string }).code === 'UND_ERR_INVALID_ARG') continue;
      report.findings.push({ request: label, status, problem: `no answer: ${(err as Error).message}` });
    }
  }
  return report;
}

function check(
  contract: Awaited<ReturnType<typeof loadContract>>,
  r: FuzzRequest,
  status: number,
  type: string,
  text: string,
  headers: Record<string, string | string[] | undefined>,
): string | null {
  if (status >= 500) return `server error ${status}: ${text.slice(0, 200)}`;
  // The gate answers before routing, whatever the method.
  if (status === 414 || status === 429 || status === 431) return r.method === 'HEAD' ? null : checkError(contract, type, text, status);
  if (r.method === 'OPTIONS') return status === 204 ? null : `OPTIONS answered ${status}`;
  if (!r.op) {
    if (status === 405 && headers.allow) return r.method === 'HEAD' ? null : checkError(contract, type, text, status);
    return `method ${r.method} not documented for ${r.target.path}, answered ${status} (want 405 with Allow)`;
  }
  const doc = contract.responseDoc(r.op, status);
  if (!doc) {
    // A path parameter that is not a path segment any more (an encoded slash) is simply another path.
    if (status === 404 && r.target.path.includes('{')) return checkError(contract, type, text, status);
    return `status ${status} is not documented for ${r.op.method} ${r.op.path}: ${text.slice(0, 200)}`;
  }
  if (r.method === 'HEAD' || status === 304 || status === 204 || status === 202) return null;
  const validate = contract.validator(r.op, status, type);
  const documentedTypes = Object.keys((doc.content as Json | undefined) ?? {}).map((t) => t.split(';')[0]!.trim());
  if (documentedTypes.length && !documentedTypes.includes(type)) return `content-type ${type} is not the documented ${documentedTypes.join(', ')}`;
  if (validate && type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `body is not JSON: ${text.slice(0, 100)}`;
    }
    if (!validate(body)) return `body does not match the documented schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
  }
  if (status >= 400 && type === 'application/json' && r.op.path !== '/mcp') return checkError(contract, type, text, status);
  return null;
}

function checkError(contract: Awaited<ReturnType<typeof loadContract>>, type: string, text: string, status: number): string | null {
  if (type === 'text/plain') return null;
  if (type !== 'application/json') return `error ${status} answered as ${type}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `error ${status} body is not JSON`;
  }
  return contract.errorValidator(body) ? null : `error ${status} body is not the Error schema: ${text.slice(0, 200)}`;
}
