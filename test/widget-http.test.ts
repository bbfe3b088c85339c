// The review widget over plain HTTP: its size, /embed.json's honest figures and paging, /embed's framing policy, validation and title, the builder's figures, the docs of every attribute; no browser needed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { ConfigError, parseFrameAncestors } from '../src/config.js';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { fromQueryString } from '../src/core/schema/query-string.js';
import { SearchQuerySchema } from '../src/core/schema/search.js';
import { WIDGET_LANGS, WidgetDataQuerySchema, WidgetOptionsSchema, type WidgetData } from '../src/core/schema/widget.js';
import { ROOT, startTestService, type TestService } from './helpers.js';

/** The issue's budget for the widget script, brotli-compressed. */
const MAX_BROTLI_BYTES = 12 * 1024;
const WIDGET_JS = readFileSync(join(ROOT, 'public/widget.js'));
const ATTRIBUTES = Object.keys(WidgetOptionsSchema.shape);

let svc: TestService;
let framed: TestService;

before(async () => {
  svc = await startTestService({ business: DEMO_BUSINESS, reviews: demoReviews() });
  framed = await startTestService({ business: DEMO_BUSINESS, reviews: demoReviews().slice(0, 10), http: { embedFrameAncestors: parseFrameAncestors('https://www.example.com https://*.example.org') } });
});
after(async () => {
  await svc?.close();
  await framed?.close();
});

type Dataset = { aggregate_rating: { rating_value: number; review_count: number; distribution: Record<string, number> }; reviews: { id: string; rating: number; text: string | null; source: string; verified: boolean }[] };
const dataset = async (): Promise<Dataset> => (await (await fetch(`${svc.url}/reviews.json`)).json()) as Dataset;
const widget = async (query: string): Promise<WidgetData> => {
  const res = await fetch(`${svc.url}/embed.json?${query}`);
  assert.equal(res.status, 200, query);
  return (await res.json()) as WidgetData;
};

describe('widget.js', () => {
  it(`is at most ${MAX_BROTLI_BYTES} bytes brotli-compressed, as built and as served`, async () => {
    const built = brotliCompressSync(WIDGET_JS, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    assert.ok(built <= MAX_BROTLI_BYTES, `${built} bytes`);
    // node:http, not fetch: fetch would decode the body, and the bytes on the wire are what counts.
    const res = await new Promise<IncomingMessage>((resolve, reject) => get(`${svc.url}/widget.js`, { headers: { 'accept-encoding': 'br' } }, resolve).on('error', reject));
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type']!, /^text\/javascript/);
    // A module script from another origin needs CORS.
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['content-encoding'], 'br');
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const served = Buffer.concat(chunks);
    assert.ok(served.length <= MAX_BROTLI_BYTES, `${served.length} bytes served`);
    assert.deepEqual(brotliDecompressSync(served), WIDGET_JS);
  });

  it('imports nothing and names no origin but its own', () => {
    const src = WIDGET_JS.toString();
    assert.doesNotMatch(src, /^\s*import\s/m);
    assert.doesNotMatch(src, /https?:\/\//);
    assert.match(src, /new URL\(import\.meta\.url\)\.origin/);
  });

  it('observes exactly the attributes WidgetOptionsSchema names, and sends on its data options', () => {
    const src = WIDGET_JS.toString();
    const attrs = JSON.parse(/const ATTRS = (\[[^\]]*\]);/.exec(src)![1]!.replace(/'/g, '"')) as string[];
    assert.deepEqual(attrs, ATTRIBUTES);
  });
});

describe('GET /embed.json', () => {
  it('states the true figures whatever min-rating and with-text hide, and only narrows the reviews', async () => {
    const d = await dataset();
    const verified = d.reviews.filter((r) => r.verified).length;
    const all = await widget('layout=badge');
    assert.deepEqual(all.rating, { rating_value: d.aggregate_rating.rating_value, review_count: d.aggregate_rating.review_count, verified_count: verified, distribution: d.aggregate_rating.distribution });
    assert.deepEqual(all.reviews, [], 'a badge gets no reviews');
    const four = await widget('layout=list&min-rating=4&with-text=true&limit=20');
    assert.deepEqual(four.rating, all.rating, 'the figures stay those of every review');
    assert.equal(four.matched, d.reviews.filter((r) => r.rating >= 4 && r.text !== null).length);
    assert.equal(four.reviews.length, 20);
    assert.ok(four.reviews.every((r) => r.rating >= 4 && r.text !== null));
  });

  it('a source, technician or service is a scope: the figures are those of its reviews', async () => {
    const d = await dataset();
    const google = d.reviews.filter((r) => r.source === 'google');
    assert.ok(google.length > 0 && google.length < d.reviews.length);
    const g = await widget('layout=list&source=google&limit=20');
    assert.equal(g.rating.review_count, google.length);
    assert.equal(g.rating.verified_count, google.filter((r) => r.verified).length);
    assert.equal(g.rating.rating_value, Math.round((google.reduce((s, r) => s + r.rating, 0) / google.length) * 100) / 100);
    assert.ok(g.reviews.every((r) => r.source === 'google'));
    const tom = await widget('layout=summary&technician=Tom');
    assert.ok(tom.rating.review_count > 0 && tom.rating.review_count < d.reviews.length);
    assert.equal(tom.business.url, `${svc.url}/?technician=Tom`);
    assert.equal(tom.notices, undefined, 'a roster name: no notice');
  });

  it('a technician or service the profile does not know carries the search API\'s notices', async () => {
    for (const [query, parameter] of [
      ['technician=Zed', 'mentions_technician'],
      ['service=roofing', 'mentions_service'],
    ] as const) {
      const data = await widget(`layout=badge&${query}`);
      const api = (await (await fetch(`${svc.url}/api/reviews/search?${parameter}=${query.split('=')[1]}`)).json()) as { notices: unknown };
      assert.deepEqual(data.notices, api.notices, query);
    }
    assert.equal((await widget('layout=badge&technician=DJ&service=AC')).notices, undefined, 'aliases are known');
  });

  it('the list pages through every matching review exactly once with cursor', async () => {
    const d = await dataset();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: WidgetData = await widget(`layout=list&min-rating=3&sort=lowest&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.reviews.map((r) => r.id));
      cursor = page.next_cursor;
    } while (cursor);
    const wanted = d.reviews.filter((r) => r.rating >= 3);
    assert.equal(seen.length, wanted.length);
    assert.equal(new Set(seen).size, wanted.length);
    const bad = await fetch(`${svc.url}/embed.json?layout=list&cursor=garbage`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { issues: { code: string }[] }).issues[0]!.code, 'invalid_cursor');
  });

  it("the summary's mentions are the insights' most mentioned aspects", async () => {
    const ins = (await (await fetch(`${svc.url}/insights.json`)).json()) as { aspects: { id: string; label: string; mention_count: number; positive_pct: number }[] };
    const top = ins.aspects
      .filter((a) => a.mention_count > 0)
      .sort((x, y) => y.mention_count - x.mention_count || (x.id < y.id ? -1 : 1))
      .slice(0, 6)
      .map((a) => ({ id: a.id, label: a.label, mention_count: a.mention_count, positive_pct: a.positive_pct }));
    assert.deepEqual((await widget('layout=summary')).mentions, top);
  });

  it('refuses an unknown or invalid option by name, answers conditional GETs with 304, and is open to every origin', async () => {
    const res = await fetch(`${svc.url}/embed.json?min-rating=6&colour=red&layout=grid`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: string; issues: { parameter: string }[] };
    assert.equal(body.error, 'validation_error');
    assert.deepEqual(body.issues.map((i) => i.parameter).sort(), ['colour', 'layout', 'min-rating']);
    // Each option has one plain message, whatever is wrong with it, and quotes what was sent.
    const messages = async (query: string) => ((await (await fetch(`${svc.url}/embed.json?${query}`)).json()) as { issues: { parameter: string; message: string }[] }).issues.map((i) => `${i.parameter}: ${i.message}`);
    assert.deepEqual(await messages('limit=abc&min-rating=9&layout=grid'), [
      'layout: must be badge, carousel, list or summary (got "grid")',
      'min-rating: must be a whole number from 1 to 5 (got "9")',
      'limit: must be a whole number from 1 to 20 (got "abc")',
    ]);
    assert.deepEqual(await messages('limit=0&source=&sort=best'), [
      'source: must be a lower-case source name such as "google", up to 64 characters (got "")',
      'limit: must be a whole number from 1 to 20 (got "0")',
      'sort: must be newest, oldest, highest or lowest (got "best")',
    ]);
    const first = await fetch(`${svc.url}/embed.json?layout=carousel`);
    assert.equal(first.headers.get('access-control-allow-origin'), '*');
    assert.match(first.headers.get('access-control-expose-headers')!, /ETag/);
    assert.match(first.headers.get('cache-control')!, /max-age=\d+/);
    const again = await fetch(`${svc.url}/embed.json?layout=carousel`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(again.status, 304);
    const preflight = await fetch(`${svc.url}/embed.json`, { method: 'OPTIONS', headers: { origin: 'https://host.example', 'access-control-request-headers': 'if-none-match' } });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /If-None-Match/);
  });
});

describe('GET /embed', () => {
  it('may be framed by any site by default; every other page still refuses framing', async () => {
    const res = await fetch(`${svc.url}/embed?layout=summary&lang=de`);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /frame-ancestors \*$/);
    assert.match(csp, /script-src 'self'/);
    assert.equal(res.headers.get('x-frame-options'), null);
    const html = await res.text();
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<reviewcast-reviews layout="summary" lang="de"><\/reviewcast-reviews>/);
    assert.match(html, /<script type="module" src="\/widget.js"><\/script>/);
    for (const path of ['/', '/developers/widget', `/reviews/${(await dataset()).reviews[0]!.id}`]) {
      const page = await fetch(`${svc.url}${path}`);
      assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/, path);
      assert.equal(page.headers.get('x-frame-options'), 'DENY', path);
    }
  });

  it('takes its framing policy from EMBED_FRAME_ANCESTORS, which is validated', async () => {
    const res = await fetch(`${framed.url}/embed`);
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors https:\/\/www\.example\.com https:\/\/\*\.example\.org$/);
    assert.equal(parseFrameAncestors(undefined), '*');
    assert.equal(parseFrameAncestors(" 'self'  https://a.example:8443 "), "'self' https://a.example:8443");
    assert.equal(parseFrameAncestors("'none'"), "'none'");
    for (const bad of ["https://a.example; script-src 'unsafe-inline'", 'https://a.example,https://b.example', "'unsafe-inline'"]) {
      assert.throws(() => parseFrameAncestors(bad), ConfigError, bad);
    }
  });

  it("docs/widget.md's first example as an iframe: a flag given bare is true, as a bare attribute is; any other value but true or false is still refused", async () => {
    const res = await fetch(`${svc.url}/embed?layout=carousel&min-rating=4&with-text`);
    const html = await res.text();
    assert.equal(res.status, 200, html);
    assert.match(html, /<reviewcast-reviews layout="carousel" min-rating="4" with-text="true"><\/reviewcast-reviews>/);
    assert.match(await (await fetch(`${svc.url}/embed?live`)).text(), /<reviewcast-reviews live="true"><\/reviewcast-reviews>/);
    assert.deepEqual(await widget('layout=list&with-text'), await widget('layout=list&with-text=true'));
    for (const value of ['yes', '1', 'TRUE', ' ']) {
      const data = await fetch(`${svc.url}/embed.json?with-text=${encodeURIComponent(value)}`);
      assert.equal(data.status, 400, value);
      assert.deepEqual(((await data.json()) as { issues: { message: string }[] }).issues.map((i) => i.message), [`must be true or false (got "${value}")`]);
      const page = await fetch(`${svc.url}/embed?live=${encodeURIComponent(value)}`);
      assert.equal(page.status, 400, value);
      assert.ok((await page.text()).includes(`<code>live</code>: must be true or false (got &quot;${value}&quot;)`), value);
    }
    // The widget schema's query-string face says so, for every route that reads it; the search API's flags still take only the words.
    assert.equal(fromQueryString(WidgetOptionsSchema, { live: '' }).live, true);
    assert.equal(fromQueryString(WidgetDataQuerySchema, { 'with-text': '' })['with-text'], true);
    assert.equal(fromQueryString(SearchQuerySchema, { with_text: '' }).with_text, '');
  });

  it("is in the widget's language, its title too", async () => {
    const name = DEMO_BUSINESS.name;
    const titles = { en: `Customer reviews of ${name}`, de: `Kundenbewertungen für ${name}`, fr: `Avis clients sur ${name}`, es: `Opiniones de clientes sobre ${name}` };
    assert.deepEqual(Object.keys(titles), [...WIDGET_LANGS]);
    for (const lang of WIDGET_LANGS) {
      const html = await (await fetch(`${svc.url}/embed?lang=${lang}`)).text();
      assert.match(html, new RegExp(`<html lang="${lang}">`));
      assert.ok(html.includes(`<title>${titles[lang]}</title>`), `${lang}: ${/<title>.*<\/title>/.exec(html)?.[0]}`);
    }
  });

  it('refuses invalid options with a 400 page naming each', async () => {
    const res = await fetch(`${svc.url}/embed?limit=0&theme=pink`);
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    const html = await res.text();
    assert.match(html, /<code>limit<\/code>/);
    assert.match(html, /<code>theme<\/code>/);
  });
});

describe('/developers/widget', () => {
  it("shows no figure but the business's own: the example of what the widget claims is this business's", async () => {
    for (const [service, reviews] of [
      [svc, demoReviews()],
      [framed, demoReviews().slice(0, 10)],
    ] as const) {
      const page = await (await fetch(`${service.url}/developers/widget`)).text();
      const four = reviews.filter((r) => r.rating >= 4).length;
      assert.ok(page.includes(`"Showing 4-star and higher reviews (${four} of ${reviews.length} reviews)."`), `${reviews.length} reviews`);
    }
    const small = await (await fetch(`${framed.url}/developers/widget`)).text();
    assert.doesNotMatch(small, /\b(320|250|246|412)\b/, "a figure of the demo's 320 reviews, or a height made up for an example");
  });
});

describe('the widget is documented', () => {
  it('docs/widget.md and /developers/widget describe every attribute, and the OpenAPI document the endpoints', async () => {
    const md = readFileSync(join(ROOT, 'docs/widget.md'), 'utf8');
    const page = await (await fetch(`${svc.url}/developers/widget`)).text();
    for (const a of ATTRIBUTES) {
      assert.match(md, new RegExp(`^\\| \`${a}\` \\|`, 'm'), `docs/widget.md: ${a}`);
      assert.ok(page.includes(`<th scope="row"><code>${a}</code></th>`), `/developers/widget: ${a}`);
      assert.ok(page.includes(`name="${a}"`), `builder control: ${a}`);
    }
    assert.ok(page.includes(`&lt;script type=&quot;module&quot; src=&quot;${svc.url}/widget.js&quot;&gt;&lt;/script&gt;`));
    assert.match(await (await fetch(`${svc.url}/developers`)).text(), /href="\/developers\/widget"/);
    assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /\(docs\/widget\.md\)/);
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> };
    for (const path of ['/embed', '/embed.json', '/widget.js', '/reviews/{id}']) assert.ok(doc.paths[path]?.get, path);
    assert.deepEqual(doc.paths['/embed']!.get!.parameters!.filter((p) => !/^If-/.test(p.name)).map((p) => p.name), ATTRIBUTES);
  });
});
