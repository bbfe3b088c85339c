// Pages over plain HTTP: caching, llms.txt, robots and favicon, filters; no browser needed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { startTestService, type TestService } from './helpers.js';

let svc: TestService;

before(async () => (svc = await startTestService({ business: DEMO_BUSINESS, reviews: demoReviews() })));
after(async () => await svc?.close());

describe('pages over HTTP', () => {
  it('are cached per revision with ETag and 304 like the datasets', async () => {
    for (const path of ['/', '/developers', '/llms.txt', '/?rating=5']) {
      const first = await fetch(`${svc.url}${path}`);
      assert.equal(first.status, 200, path);
      const again = await fetch(`${svc.url}${path}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
      assert.equal(again.status, 304, path);
    }
  });
  it('/llms.txt names the business, its summary and where the data and tools are', async () => {
    const res = await fetch(`${svc.url}/llms.txt`);
    assert.match(res.headers.get('content-type')!, /^text\/plain/);
    const text = await res.text();
    assert.match(text, new RegExp(`^# ${DEMO_BUSINESS.name}`));
    assert.match(text, /Customers most often praise/);
    for (const p of ['/reviews.json', '/insights.json', '/mcp', '/.well-known/openapi.json']) assert.ok(text.includes(`${svc.url}${p}`), p);
  });
  it('/robots.txt names /sitemap.xml, which lists the pages, every page of reviews and every review permalink', async () => {
    const robots = await (await fetch(`${svc.url}/robots.txt`)).text();
    assert.match(robots, new RegExp(`^Sitemap: ${svc.url}/sitemap.xml$`, 'm'));
    const res = await fetch(`${svc.url}/sitemap.xml`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/xml/);
    const xml = await res.text();
    assert.match(xml, /<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const data = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { aggregate_rating: { review_count: number }; reviews: { url: string }[] };
    const count = data.aggregate_rating.review_count;
    const pages = Math.ceil(count / 20);
    assert.deepEqual(locs, [
      ...['/', '/developers', '/developers/api', '/developers/mcp', '/developers/webhooks', '/developers/widget'].map((p) => `${svc.url}${p}`),
      ...Array.from({ length: pages - 1 }, (_, i) => `${svc.url}/?page=${i + 2}`),
      // Every review's own page, newest first: the very url the API gives each review.
      ...data.reviews.map((r) => r.url),
    ]);
    // The last list page listed is the last page of reviews: it shows reviews, and one more would be past the end.
    assert.match(await (await fetch(`${svc.url}/?page=${pages}`)).text(), new RegExp(`Page ${pages} of ${pages}`));
    assert.equal((await fetch(locs.at(-1)!)).status, 200);
  });
  it('/robots.txt and /favicon.ico answer without a 404', async () => {
    assert.match(await (await fetch(`${svc.url}/robots.txt`)).text(), /User-agent: \*/);
    const icon = await fetch(`${svc.url}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
  });
  it('ignores unknown query parameters on pages and reports invalid filters on the page', async () => {
    const res = await fetch(`${svc.url}/?since=2026-02-30&utm_source=x`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Some filters were ignored: since/);
  });
  it('send a URL with empty fields or the default order on to the short one', async () => {
    for (const [from, to] of [
      ['/?sort=newest&rating=&since=&until=&query=&technician=&service=', '/'],
      ['/?sort=newest&rating=5&since=&query=', '/?rating=5'],
      ['/?rating=&sort=lowest&query=on+time', '/?sort=lowest&query=on+time'],
    ]) {
      const res = await fetch(`${svc.url}${from}`, { redirect: 'manual' });
      assert.equal(res.status, 302, from);
      assert.equal(res.headers.get('location'), to, from);
    }
    assert.equal((await fetch(`${svc.url}/?rating=5&query=on%20time`, { redirect: 'manual' })).status, 200);
  });
  it('are left out of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(!('/developers' in doc.paths) && !('/' in doc.paths));
  });
});
