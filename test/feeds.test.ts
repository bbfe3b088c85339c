import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import type { Review } from '../src/core/schema/review.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { importTime } from '../src/store/store.js';
import { eventually, startTestService, type TestService } from './helpers.js';

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
      // RFC 4151: an authority name has no port.
      assert.match(e.id!, /^tag:127\.0\.0\.1,\d{4}-\d{2}-\d{2}:review:[0-9A-Z]{26}$/);
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

  it('links every entry to its permalink page, and to the original as rel="via" where there is one', async () => {
    const xml = await (await fetch(`${svc.url}/feed.xml`)).text();
    const atom = parseAtomFeed(xml);
    const byId = new Map(MANY.map((r) => [r.id, r]));
    let via = 0;
    for (const e of atom.entries!) {
      const review = byId.get(e.id!.split(':review:')[1]!)!;
      assert.equal(e.links?.find((l) => l.rel === 'alternate')?.href, `${svc.url}/reviews/${review.id}`);
      const source = e.links?.find((l) => l.rel === 'via')?.href;
      assert.equal(source, review.source_url ?? undefined);
      if (source) via++;
    }
    assert.ok(via > 0 && via < 50, `${via} entries with a source`);
    // A second parser reads the same: every item's link is its page, and the feed's site is the home page, not /feed.xml.
    const parsed = parseFeed(xml);
    assert.equal(parsed.url, `${svc.url}/`);
    for (const item of parsed.items) assert.match(item.url!, new RegExp(`^${svc.url}/reviews/[0-9A-Z]{26}$`));
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
    assert.ok(hostile.content_text.startsWith(`${HOSTILE}\n\nReply from ${BUSINESS.name}`));
  });

  it('gives rating-only reviews a content_text, every item its permalink as url and the original as external_url', async () => {
    const text = await (await fetch(`${svc.url}/api/feed.json`)).text();
    const raw = JSON.parse(text) as { items: { content_text: string; url?: string; external_url?: string; _reviewcast: { review_id: string; about: string } }[] };
    assert.ok(raw.items.some((i) => /^Rated \d out of 5 \(no written review\)\.$/.test(i.content_text)));
    const byId = new Map(MANY.map((r) => [r.id, r]));
    const parsed = parseJsonFeed(text).items!;
    assert.equal(parsed.length, raw.items.length);
    for (const [i, item] of parsed.entries()) {
      const review = byId.get(raw.items[i]!._reviewcast.review_id)!;
      assert.equal(item.url, `${svc.url}/reviews/${review.id}`);
      assert.equal(item.external_url, review.source_url ?? undefined);
    }
  });
  it('carries the owner replies, as the Atom feed does', async () => {
    const json = (await (await fetch(`${svc.url}/api/feed.json`)).json()) as { items: { id: string; content_text: string; _reviewcast: { review_id: string } }[] };
    const atom = parseAtomFeed(await (await fetch(`${svc.url}/feed.xml`)).text());
    const withReply = new Set(MANY.filter((r) => r.owner_reply).map((r) => r.id));
    const replied = json.items.filter((i) => withReply.has(i._reviewcast.review_id));
    assert.ok(replied.length > 0);
    for (const item of replied) {
      const review = MANY.find((r) => r.id === item._reviewcast.review_id)!;
      assert.ok(item.content_text.endsWith(`\n\nReply from ${BUSINESS.name} (${review.owner_reply!.date}): ${review.owner_reply!.text}`), item.content_text);
      const entry = atom.entries!.find((e) => e.id === item.id)!;
      assert.equal((entry.content as unknown as { value: string }).value, item.content_text.replace('\u0001', ''));
    }
  });
  it('documents its _reviewcast extension at an about URL served here', async () => {
    const raw = (await (await fetch(`${svc.url}/api/feed.json`)).json()) as { items: { _reviewcast: { about: string } }[] };
    const about = new Set(raw.items.map((i) => i._reviewcast.about));
    assert.deepEqual([...about], [`${svc.url}/developers#reviewcast-extension`]);
    const page = await (await fetch(`${svc.url}/developers`)).text();
    assert.match(page, /id="reviewcast-extension"/);
    assert.match(page, /<code>about<\/code>/);
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

describe('entry ids (RFC 4151 tag URIs)', () => {
  const ids = async (url: string) => (parseAtomFeed(await (await fetch(`${url}/feed.xml`)).text()).entries ?? []).map((e) => e.id!);
  it('use the host without its port and a date fixed once per installation: a restart or a new BASE_URL keeps them', async () => {
    const first = await startTestService({ business: BUSINESS, reviews: REVIEWS, baseUrl: 'https://reviews.example.org:8443' });
    const database = first.database;
    let before: string[];
    try {
      before = await ids(first.url);
      assert.ok(before.length > 0);
      for (const id of before) assert.match(id, /^tag:reviews\.example\.org,\d{4}-\d{2}-\d{2}:review:[0-9A-Z]{26}$/);
    } finally {
      await first.close();
    }
    const moved = await startTestService({ database, baseUrl: 'https://elsewhere.example.net' });
    try {
      assert.deepEqual(await ids(moved.url), before, 'same ids after a restart at another address');
      const json = (await (await fetch(`${moved.url}/api/feed.json`)).json()) as { items: { id: string; url: string }[] };
      assert.deepEqual(json.items.map((i) => i.id), before, 'JSON Feed and Atom share the ids');
      assert.ok(json.items.every((i) => i.url.startsWith('https://elsewhere.example.net/reviews/')), 'links follow BASE_URL; ids do not');
    } finally {
      await moved.close();
    }
  });
});

describe("an entry's updated time (RFC 4287 §4.2.15, JSON Feed date_modified)", () => {
  it('moves to the import that changed a review (text, rating, reply) and stays for one it did not, after a restart too', async () => {
    const reviews = REVIEWS.slice(0, 3).map((r, i) => ({ ...r, date: `2026-01-0${i + 1}`, owner_reply: null }));
    const s = await startTestService({ business: BUSINESS, reviews, revisionPollMs: 50 });
    let closed = false;
    const [edited, kept, replied] = reviews as [Review, Review, Review];
    const entryTimes = async (url: string) => {
      const atom = parseAtomFeed(await (await fetch(`${url}/feed.xml`)).text()).entries ?? [];
      const json = ((await (await fetch(`${url}/api/feed.json`)).json()) as { items: { date_modified: string; _reviewcast: { review_id: string } }[] }).items;
      const byId = new Map(json.map((i) => [i._reviewcast.review_id, i.date_modified]));
      return new Map(atom.map((e) => [e.id!.slice(-26), { atom: e.updated!, json: byId.get(e.id!.slice(-26))! }]));
    };
    try {
      const before = await entryTimes(s.url);
      assert.deepEqual([...before.values()].map((t) => t.atom).sort(), ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z']);
      const { revision } = await s.store.getRevision();
      const start = Date.now();
      // An import that edits one text, adds a reply to another (dated before the review: the import's time still wins) and leaves the third as it was.
      const outcome = await s.store.importReviews({
        reviews: [{ ...edited, text: `${edited.text} Edit: the fix held.` }, kept, { ...replied, owner_reply: { text: 'Thank you!', date: '2025-12-31' } }],
        replace: false,
        dryRun: false,
      });
      const end = Date.now();
      assert.equal(outcome.updated, 2);
      assert.ok(await eventually(async () => s.server.live.current().revision.revision > revision, 10_000), 'the server serves the new revision');
      const after = await entryTimes(s.url);
      for (const id of [edited.id, replied.id]) {
        const t = after.get(id)!;
        assert.equal(t.atom, t.json, 'Atom and JSON Feed agree');
        assert.ok(Date.parse(t.atom) >= start - 1 && Date.parse(t.atom) <= end + 1, `${id}: ${t.atom} is the import's time`);
      }
      assert.deepEqual(after.get(kept.id), before.get(kept.id), 'an unchanged review keeps its time');
      // The feed's own updated is the data's: never earlier than an entry's.
      const feedUpdated = parseAtomFeed(await (await fetch(`${s.url}/feed.xml`)).text()).updated!;
      assert.ok(Date.parse(feedUpdated) >= Date.parse(after.get(edited.id)!.atom));
      // Importing the same again changes nothing; a dry run of an edit writes nothing; a change no feed shows (a new
      // avatar address, its id in its source) is stored but keeps the time; a reply taken away moves it; a new review has its own date.
      const editedNow = { ...edited, text: `${edited.text} Edit: the fix held.` };
      assert.equal((await s.store.importReviews({ reviews: [editedNow], replace: false, dryRun: false })).updated, 0);
      assert.equal((await s.store.importReviews({ reviews: [{ ...kept, text: 'Changed in a dry run.' }], replace: false, dryRun: true })).updated, 1);
      const unseen = { ...editedNow, author_avatar_url: 'https://avatars.example.com/a?sig=2', source_id: 'crm-2' };
      const newcomer: Review = { ...kept, id: '01KNEWREVIEW0000000000000Z', date: '2026-01-05', author: 'Newcomer' };
      const { revision: second } = await s.store.getRevision();
      const later = Date.now();
      const third = await s.store.importReviews({ reviews: [unseen, { ...replied, owner_reply: null }, newcomer], replace: false, dryRun: false });
      assert.deepEqual([third.added, third.updated], [1, 2]);
      assert.ok(await eventually(async () => s.server.live.current().revision.revision > second, 10_000), 'the server serves the third revision');
      const last = await entryTimes(s.url);
      assert.deepEqual(last.get(edited.id), after.get(edited.id), 'a change no feed shows keeps the time');
      assert.deepEqual(last.get(kept.id), before.get(kept.id), 'the dry run moved nothing');
      assert.ok(Date.parse(last.get(replied.id)!.atom) >= later - 1, 'a reply taken away moves the time');
      assert.deepEqual(last.get(newcomer.id), { atom: '2026-01-05T00:00:00Z', json: '2026-01-05T00:00:00Z' }, 'a new review has its own date');
      await s.close();
      closed = true;
      const restarted = await startTestService({ database: s.database });
      try {
        assert.deepEqual(await entryTimes(restarted.url), last, 'kept in the store: the same times after a restart');
      } finally {
        await restarted.close();
      }
    } finally {
      if (!closed) await s.close();
    }
  });
});

describe('import times', () => {
  it('are now, or just after the last change when this clock is behind the one that made it', () => {
    const t = Date.now();
    assert.ok(Math.abs(Date.parse(importTime('2020-01-01T00:00:00.000Z')) - t) < 1000);
    assert.equal(importTime('2999-01-01T00:00:00.000Z'), '2999-01-01T00:00:00.001Z');
    assert.ok(Math.abs(Date.parse(importTime('not a time')) - t) < 1000);
  });
});
