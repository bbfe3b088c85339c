// Pages over plain HTTP: caching, llms.txt, robots and favicon, filters; no browser needed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { html } from '../src/pages/html.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
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
    // The last list page listed is the last page of reviews: it shows reviews, and one more is past the end.
    assert.match(await (await fetch(`${svc.url}/?page=${pages}`)).text(), new RegExp(`Page ${pages} of ${pages}`));
    assert.equal((await fetch(`${svc.url}/?page=${pages + 1}`)).status, 404);
    assert.equal((await fetch(locs.at(-1)!)).status, 200);
  });
  it('"What people mention" chips go in the order of the counts they show, each what its search finds', async () => {
    const page = await (await fetch(`${svc.url}/`)).text();
    const list = /<ul class="chips" aria-labelledby="mentions-h">(.*?)<\/ul>/s.exec(page)?.[1] ?? '';
    const chips = [...list.matchAll(/data-query="([^"]+)"[^>]*>[^<]*<span class="count">([\d,]+)<\/span>/g)].map((m) => ({ query: m[1]!, count: Number(m[2]!.replace(/,/g, '')) }));
    assert.ok(chips.length >= 3, `chips: ${JSON.stringify(chips)}`);
    for (let i = 1; i < chips.length; i++) assert.ok(chips[i - 1]!.count >= chips[i]!.count, `${JSON.stringify(chips)} in order of their counts`);
    // The count is the search's: the topic count alone ("burst pipe" in 21 reviews) would disagree with the list it opens (28).
    const { query, count } = chips[0]!;
    const res = (await (await fetch(`${svc.url}/api/reviews/search?query=${encodeURIComponent(query)}&limit=100`)).json()) as { reviews: unknown[] };
    assert.equal(res.reviews.length, Math.min(count, 100), query);
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
    const page = await res.text();
    assert.match(page, /Some filters could not be used and were left out: From \(enter a date such as 2026-03-05\)\. <a href="\/">Clear filters<\/a>/);
    // Customers see the field's name and what to enter, not the validator's words.
    assert.doesNotMatch(page, /Invalid ISO date|since:/);
    const bad = await (await fetch(`${svc.url}/?rating=9&page=x`)).text();
    assert.match(bad, /left out: Stars \(choose 1 to 5 stars\); Page \(a page number from 1\)\./);
    // A page number that is not one shows page 1, as "/" does, but says so; "/" never does.
    for (const path of ['/', '/?page=x', '/?page=01', '/']) {
      const shown = await (await fetch(`${svc.url}${path}`)).text();
      if (path === '/') assert.doesNotMatch(shown, /left out/, path);
      else assert.match(shown, /left out: Page \(a page number from 1\)\./, path);
    }
  });
  it('a page number past the last is 404 with a link to the last page, not another page under its address', async () => {
    const count = ((await (await fetch(`${svc.url}/reviews.json`)).json()) as { aggregate_rating: { review_count: number } }).aggregate_rating.review_count;
    const pages = Math.ceil(count / 20);
    const fiveStars = ((await (await fetch(`${svc.url}/api/reviews/search?rating=5&limit=1`)).json()) as { matched: number }).matched;
    const fivePages = Math.ceil(fiveStars / 20);
    for (const [path, last, what] of [
      [`/?page=${pages + 1}`, `/?page=${pages}`, `There are only ${pages} pages of reviews of ${DEMO_BUSINESS.name}.`],
      ['/?page=999', `/?page=${pages}`, `There are only ${pages} pages of reviews of ${DEMO_BUSINESS.name}.`],
      [`/?rating=5&page=${fivePages + 1}`, `/?rating=5&amp;page=${fivePages}`, `There are only ${fivePages} pages of reviews matching these filters.`],
      ['/?query=zzqqxx&page=2', '/?query=zzqqxx', 'There is only one page of reviews matching these filters.'],
    ] as const) {
      const res = await fetch(`${svc.url}${path}`);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type')!, /^text\/html/, path);
      assert.equal(res.headers.get('cache-control'), 'no-store', path);
      assert.ok(res.headers.get('content-security-policy'), path);
      const page = await res.text();
      assert.ok(page.includes(`<h1>No page ${/page=(\d+)/.exec(path)![1]}</h1>`), path);
      assert.ok(page.includes(what), `${path}: ${what}`);
      assert.ok(page.includes(`<a href="${last}">Go to page`), `${path} links ${last}`);
      assert.match(page, /<meta name="robots" content="noindex">/, path);
      assert.doesNotMatch(page, /rel="canonical"|application\/ld\+json/, path);
      assert.equal((await fetch(`${svc.url}${path}`, { method: 'HEAD' })).status, 404, `HEAD ${path}`);
      // The 404 is kept with the answers, but never served as a page's conditional answer.
      assert.equal(res.headers.get('etag'), null, path);
      const again = await fetch(`${svc.url}${path}`, { headers: { 'if-none-match': '*', 'accept-encoding': 'gzip' } });
      assert.equal(again.status, 404, `${path} again`);
      assert.equal(await again.text(), page, `${path} again`);
    }
    // The last page and the first of a view with no matches are pages; a number that is not one is still page 1, said so.
    for (const path of [`/?page=${pages}`, `/?rating=5&page=${fivePages}`, '/?query=zzqqxx', '/?page=1']) assert.equal((await fetch(`${svc.url}${path}`)).status, 200, path);
    for (const path of ['/?page=0', '/?page=x', '/?page=1234567']) {
      const res = await fetch(`${svc.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(await res.text(), /left out: Page \(a page number from 1\)\./, path);
    }
  });
  it('a technician or service the profile does not know: the page says it was matched as a word and names those it knows, as the API\'s notices do', async () => {
    const notices = (page: string) => /<div id="review-notices" aria-live="polite"( hidden)?>(.*?)<\/div>/s.exec(page)!;
    for (const [path, parameter] of [
      ['/?technician=Bob', 'mentions_technician'],
      ['/?service=roofing', 'mentions_service'],
    ] as const) {
      const page = await (await fetch(`${svc.url}${path}`)).text();
      const api = (await (await fetch(`${svc.url}/api/reviews/search?${parameter}=${path.split('=')[1]}`)).json()) as { notices: { message: string }[] };
      const [, hidden, shown] = notices(page);
      assert.equal(hidden, undefined, path);
      assert.equal(shown, html`<p class="card notice">${api.notices[0]!.message}</p>`.value, path);
    }
    // Names and aliases the profile knows, in any case, get none.
    for (const path of ['/', `/?technician=${DEMO_BUSINESS.technicians[0]!.name}`, '/?technician=dj', '/?service=water_heater', '/?service=AC']) {
      const [, hidden, shown] = notices(await (await fetch(`${svc.url}${path}`)).text());
      assert.deepEqual([hidden, shown], [' hidden', ''], path);
    }
  });
  it('an operator can leave the technicians table out (hide_technician_table in the profile)', async () => {
    assert.match(await (await fetch(`${svc.url}/`)).text(), /<h2 id="tech-h">Technicians<\/h2>/);
    const hidden = await startTestService({ business: { ...DEMO_BUSINESS, hide_technician_table: true }, reviews: demoReviews().slice(0, 40) });
    try {
      const page = await (await fetch(`${hidden.url}/`)).text();
      assert.doesNotMatch(page, /id="tech-h"/);
      assert.match(page, /<h2 id="svc-h">Services<\/h2>/);
    } finally {
      await hidden.close();
    }
  });
  it('the technicians table has rows only for technicians reviews name; the others are said to have no reviews yet', async () => {
    const roster = { ...BUSINESS, technicians: [...BUSINESS.technicians, { name: 'Zed', aliases: [] }, { name: 'Yan', aliases: [] }] };
    const some = await startTestService({ business: roster, reviews: REVIEWS });
    const none = await startTestService({ business: { ...BUSINESS, technicians: [{ name: 'Zed', aliases: [] }] }, reviews: REVIEWS });
    try {
      const page = await (await fetch(`${some.url}/`)).text();
      const rows = [...page.matchAll(/<tr><th scope="row"><a href="\/\?technician=([^"]+)">[^<]+<\/a><\/th><td class="num">(\d+)<\/td>/g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(rows, [['Al', '3'], ['Bea', '2']]);
      assert.match(page, /<p class="muted">No reviews yet for Yan and Zed\.<\/p><\/section>/);
      // No technician named in any review: no table of zeros, only the sentence.
      const empty = await (await fetch(`${none.url}/`)).text();
      assert.match(empty, /<h2 id="tech-h">Technicians<\/h2><p class="muted">No reviews yet for Zed\.<\/p><\/section>/);
      assert.doesNotMatch(empty, /Technicians table/);
    } finally {
      await some.close();
      await none.close();
    }
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
  it('link fingerprinted assets that are cached for a year; the plain address still answers, briefly cached', async () => {
    const home = await (await fetch(`${svc.url}/`)).text();
    const linked = [...home.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(linked.some((u) => u.endsWith('.css')) && linked.some((u) => u.includes('/assets/reviews.')), JSON.stringify(linked));
    for (const url of linked) {
      const m = /^\/assets\/([\w-]+)\.([0-9a-f]{12})\.(css|js)$/.exec(url);
      assert.ok(m, url);
      const res = await fetch(`${svc.url}${url}`);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', url);
      const body = Buffer.from(await res.arrayBuffer());
      // The fingerprint is the content's hash, so new content gets a new address.
      assert.equal(createHash('sha256').update(body).digest('hex').slice(0, 12), m[2], url);
      const plain = await fetch(`${svc.url}/assets/${m[1]}.${m[3]}`);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('cache-control'), 'public, max-age=300');
      assert.ok(Buffer.from(await plain.arrayBuffer()).equals(body));
    }
    assert.equal((await fetch(`${svc.url}/assets/site.000000000000.css`)).status, 404);
  });
  it('describe every field: no empty Meaning in the data-model and API reference tables', async () => {
    for (const path of ['/developers', '/developers/api']) {
      const page = await (await fetch(`${svc.url}${path}`)).text();
      const rows = [...page.matchAll(/<table class="fields">[\s\S]*?<\/table>/g)].flatMap((t) => [...t[0].matchAll(/<tr><th scope="row">([\s\S]*?)<\/th>[\s\S]*?<\/tr>/g)]);
      assert.ok(rows.length > 30, `${path}: ${rows.length} rows`);
      const empty = rows.filter((r) => r[0].endsWith('<td></td></tr>')).map((r) => r[1]!.replace(/<[^>]+>/g, ''));
      assert.deepEqual(empty, [], path);
    }
  });
  it('/developers/api shows the answers this service gives, not placeholders', async () => {
    const page = await (await fetch(`${svc.url}/developers/api`)).text();
    const data = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: { id: string; author: string }[] };
    const example = (id: string) => /<h4>Example response[^<]*<\/h4><pre tabindex="0"><code>([\s\S]*?)<\/code><\/pre>/.exec(page.slice(page.indexOf(`id="op-${id}"`)))![1]!;
    const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const dataset = JSON.parse(decode(example('getReviewsDataset'))) as { reviews: unknown[] };
    assert.deepEqual(dataset.reviews[0], data.reviews[0]);
    const search = await (await fetch(`${svc.url}/api/reviews/search?min_rating=4&query=on%20time&limit=2`)).json();
    assert.deepEqual(JSON.parse(decode(example('searchReviews'))), search);
    assert.doesNotMatch(page, /&quot;string&quot;/);
    assert.match(page, /curl -s &#39;http:\/\/[^&]+\/api\/reviews\/search\?min_rating=4&amp;query=on%20time&amp;limit=2&#39;/);
  });
  it('are left out of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(!('/developers' in doc.paths) && !('/' in doc.paths));
  });
});
