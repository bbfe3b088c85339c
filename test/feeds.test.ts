import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import type { Review } from '../src/core/schema/review.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { startTestService, type TestService } from './helpers.js';

const HOSTILE = `Tom & Jerry's <b>"great"</b> ]]> job <![CDATA[ x ]]> \u0001 </content></entry><script>alert(1)</script>`;
// 60 reviews: more than the 50 a feed carries, one of them hostile, one with a reply.
const MANY: Review[] = Array.from({ length: 60 }, (_, i) => ({
  ...REVIEWS[i % REVIEWS.length]!,
  id: `01K${String(i).padStart(23, '0')}`,
  date: `2026-0${1 + Math.floor(i / 28)}-${String(1 + (i % 28)).padStart(2, '0')}`,
  author: i === 59 ? 'Eve <eve@example.com> & "friends"' : `Customer ${i}`,
  text: i === 59 ? HOSTILE : REVIEWS[i % REVIEWS.length]!.text,
}));

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: MANY });
});
after(() => svc.close());

describe('GET /feed.xml (Atom, RFC 4287)', () => {
  it('parses with two independent parsers and carries the 50 newest reviews', async () => {
    const res = await fetch(`${svc.url}/feed.xml`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/atom+xml');
    const xml = await res.text();
    const feed = parseFeed(xml);
    assert.equal(feed.meta.type, 'atom');
    assert.equal(feed.title, `Reviews of ${BUSINESS.name}`);
    assert.equal(feed.items.length, 50);
    const atom = parseAtomFeed(xml);
    // §4.1.1: exactly one id, title, updated; an author; self and hub links.
    assert.equal(atom.id, `${svc.url}/feed.xml`);
    assert.ok(atom.updated && !Number.isNaN(Date.parse(atom.updated)));
    assert.equal(atom.authors?.[0]?.name, BUSINESS.name);
    const rels = Object.fromEntries((atom.links ?? []).map((l) => [l.rel, l.href]));
    assert.equal(rels.self, `${svc.url}/feed.xml`);
    assert.equal(rels.hub, `${svc.url}/api/websub/hub`);
    const entries = atom.entries ?? [];
    assert.equal(entries.length, 50);
    assert.equal(new Set(entries.map((e) => e.id)).size, 50, 'entry ids are unique');
    for (const e of entries) {
      assert.match(e.id!, /^tag:127\.0\.0\.1:\d+,\d{4}-\d{2}-\d{2}:review:[0-9A-Z]{26}$/);
      assert.ok(e.title && e.published && e.updated && e.authors?.[0]?.name && e.content, JSON.stringify(e));
      assert.ok(Date.parse(e.updated!) >= Date.parse(e.published!));
    }
    const newest = [...MANY].sort((a, b) => (a.date < b.date ? 1 : -1)).slice(0, 50);
    assert.deepEqual(entries.map((e) => e.published!.slice(0, 10)), newest.map((r) => r.date));
  });

  it('escapes hostile review text and author names so they come back exactly', async () => {
    const xml = await (await fetch(`${svc.url}/feed.xml`)).text();
    assert.ok(!xml.includes('<script>'));
    const entry = parseAtomFeed(xml).entries!.find((e) => e.authors?.[0]?.name === 'Eve <eve@example.com> & "friends"');
    assert.ok(entry, 'author name round-trips');
    // XML 1.0 cannot carry U+0001: it is dropped, everything else comes back as written, then the owner reply.
    assert.ok((entry.content as unknown as { value: string }).value.startsWith(`${HOSTILE.replace('\u0001', '')}\n\nReply from ${BUSINESS.name}`));
    assert.equal((entry.title as unknown as { value: string }).value, '★☆☆☆☆ 1/5 by Eve <eve@example.com> & "friends"');
  });

  it('links an entry to the original review where there is one', async () => {
    const atom = parseAtomFeed(await (await fetch(`${svc.url}/feed.xml`)).text());
    const withSource = atom.entries!.filter((e) => e.links?.some((l) => l.rel === 'alternate'));
    const expected = MANY.filter((r) => r.source_url).length;
    assert.ok(withSource.length > 0 && withSource.length <= expected);
    for (const e of withSource) assert.match(e.links!.find((l) => l.rel === 'alternate')!.href!, /^https:\/\/reviews\.example\.com\//);
  });
});

describe('GET /api/feed.json (JSON Feed 1.1)', () => {
  it('is a JSON Feed 1.1 with hubs and the 50 newest items, served as application/json', async () => {
    const res = await fetch(`${svc.url}/api/feed.json`);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const text = await res.text();
    const feed = parseJsonFeed(text);
    assert.equal(feed.title, `Reviews of ${BUSINESS.name}`);
    const raw = JSON.parse(text) as {
      version: string;
      home_page_url: string;
      feed_url: string;
      hubs: { type: string; url: string }[];
      items: { id: string; content_text: string; date_published: string; authors: { name: string }[]; url?: string; _reviewcast: { rating: number } }[];
    };
    assert.equal(raw.version, 'https://jsonfeed.org/version/1.1');
    assert.equal(raw.feed_url, `${svc.url}/api/feed.json`);
    assert.equal(raw.home_page_url, `${svc.url}/`);
    assert.deepEqual(raw.hubs, [{ type: 'WebSub', url: `${svc.url}/api/websub/hub` }]);
    assert.equal(raw.items.length, 50);
    assert.equal(feed.items?.length, 50);
    assert.equal(new Set(raw.items.map((i) => i.id)).size, 50);
    for (const item of raw.items) {
      assert.ok(item.content_text.length > 0);
      assert.match(item.date_published, /^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
      assert.ok(item.authors[0]!.name);
      assert.ok(item._reviewcast.rating >= 1 && item._reviewcast.rating <= 5);
    }
    const hostile = raw.items.find((i) => i.authors[0]!.name.startsWith('Eve'))!;
    assert.equal(hostile.content_text, HOSTILE);
  });

  it('gives rating-only reviews a content_text and items with a source their url', async () => {
    const raw = (await (await fetch(`${svc.url}/api/feed.json`)).json()) as { items: { content_text: string; url?: string; _reviewcast: { rating: number } }[] };
    assert.ok(raw.items.some((i) => /^Rated \d out of 5 \(no written review\)\.$/.test(i.content_text)));
    assert.ok(raw.items.some((i) => i.url?.startsWith('https://reviews.example.com/')));
  });
});

describe('WebSub discovery on the topics', () => {
  for (const topic of ['/feed.xml', '/api/feed.json', '/reviews.json']) {
    it(`${topic} sends Link rel=hub and rel=self on GET and HEAD, with conditional GET`, async () => {
      const expected = `<${svc.url}/api/websub/hub>; rel="hub", <${svc.url}${topic}>; rel="self"`;
      const get = await fetch(`${svc.url}${topic}`);
      assert.equal(get.headers.get('link'), expected);
      const head = await fetch(`${svc.url}${topic}`, { method: 'HEAD' });
      assert.equal(head.headers.get('link'), expected);
      const again = await fetch(`${svc.url}${topic}`, { headers: { 'if-none-match': get.headers.get('etag')! } });
      assert.equal(again.status, 304);
    });
  }
});
