/** The permalink page of one review, /reviews/{id}, over real HTTP: the HTML, its JSON-LD, and the 400 and 404 pages. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Review } from '../src/core/schema/review.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { startTestService, type TestService } from './helpers.js';

const HOSTILE: Review = { ...REVIEWS[0]!, id: '01J0000000000000000000000Z', author: 'Mallory <script>', text: '</script><script>alert(1)</script> & "quoted"', source: 'website', source_url: null, owner_reply: null };
/** Written on this site (source "website"), with a reply and a page of its own there: the review that gets markup. */
const OWN: Review = { ...REVIEWS[3]!, id: '01J0000000000000000000000Y', source: 'website', source_url: 'https://hvac.example.com/guestbook/42' };

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: [...REVIEWS, HOSTILE, OWN] });
});
after(() => svc.close());

const jsonLd = (page: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)![1]!) as Record<string, unknown>;

describe('GET /reviews/{id}', () => {
  it('shows the review, the owner reply and the original, with JSON-LD for that one Review', async () => {
    const r = OWN;
    const res = await fetch(`${svc.url}/reviews/${r.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(res.headers.get('etag'));
    assert.match(res.headers.get('content-security-policy')!, /script-src 'self'/);
    const page = await res.text();
    assert.ok(page.includes(r.text!), 'the review text');
    assert.ok(page.includes(r.owner_reply!.text), 'the reply');
    assert.ok(page.includes(`<link rel="canonical" href="${svc.url}/reviews/${r.id}">`));
    const ld = jsonLd(page);
    assert.equal(ld['@type'], 'Review');
    assert.equal(ld['@id'], `${svc.url}/reviews/${r.id}`);
    assert.equal(ld.url, `${svc.url}/reviews/${r.id}`);
    assert.equal(ld.reviewBody, r.text);
    assert.equal(ld.datePublished, r.date);
    assert.deepEqual(ld.reviewRating, { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 });
    assert.deepEqual(ld.author, { '@type': 'Person', name: r.author });
    assert.deepEqual(ld.itemReviewed, { '@type': BUSINESS.schema_org_type ?? 'LocalBusiness', '@id': `${svc.url}/#business`, name: BUSINESS.name });
    assert.equal(ld.sameAs, r.source_url);
    assert.equal((ld.comment as { text: string }).text, r.owner_reply!.text);
  });
  it('links the original of a review from another site, and marks it up as no Review of this site', async () => {
    const r = REVIEWS.find((x) => x.source_url)!;
    assert.notEqual(r.source, 'website');
    const page = await (await fetch(`${svc.url}/reviews/${r.id}`)).text();
    assert.ok(page.includes(`href="${r.source_url}"`));
    assert.ok(!page.includes('application/ld+json'), 'third-party reviews carry no JSON-LD');
  });
  it('says where a review without an original address was published: here, or a site that gives it none', async () => {
    const here = await (await fetch(`${svc.url}/reviews/${HOSTILE.id}`)).text();
    assert.match(here, /Written on this site: this page is where it is published\./);
    const elsewhere = REVIEWS.find((x) => !x.source_url && x.source !== 'website')!;
    const page = await (await fetch(`${svc.url}/reviews/${elsewhere.id}`)).text();
    assert.ok(page.includes(`From ${elsewhere.source}, which gives it no public address of its own.`), elsewhere.source);
  });
  it('a first-party review without text has no reviewBody', async () => {
    const r: Review = { ...OWN, text: null };
    const own = await startTestService({ business: BUSINESS, reviews: [r] });
    try {
      assert.equal(jsonLd(await (await fetch(`${own.url}/reviews/${r.id}`)).text()).reviewBody, undefined);
    } finally {
      await own.close();
    }
  });
  it('escapes hostile text in the page and in the JSON-LD', async () => {
    const page = await (await fetch(`${svc.url}/reviews/${HOSTILE.id}`)).text();
    assert.ok(!page.includes('<script>alert(1)'));
    assert.equal(jsonLd(page).reviewBody, HOSTILE.text);
    assert.deepEqual(jsonLd(page).author, { '@type': 'Person', name: HOSTILE.author });
  });
  it('accepts a lower-case id (ULIDs are case-insensitive) and answers HEAD', async () => {
    const r = REVIEWS[1]!;
    assert.equal((await fetch(`${svc.url}/reviews/${r.id.toLowerCase()}`)).status, 200);
    const head = await fetch(`${svc.url}/reviews/${r.id}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });
  it('an unknown id is a 404 page and a malformed one a 400 page', async () => {
    const unknown = await fetch(`${svc.url}/reviews/01ZZZZZZZZZZZZZZZZZZZZZZZZ`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type')!, /^text\/html/);
    assert.match(await unknown.text(), /No such review/);
    for (const bad of ['not-a-ulid', '01JQ8Z6D2V7C3XAMPLE0000001', `${REVIEWS[0]!.id}0`, '%3Cscript%3E']) {
      const res = await fetch(`${svc.url}/reviews/${bad}`);
      assert.equal(res.status, 400, bad);
      const page = await res.text();
      assert.match(page, /Not a review id/);
      assert.ok(!page.includes('<script>'), bad);
    }
  });
  it('is where every published review points: the url of each review in /reviews.json answers 200', async () => {
    const body = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: { id: string; url: string }[] };
    for (const r of body.reviews) assert.equal((await fetch(r.url)).status, 200, r.url);
  });
});
