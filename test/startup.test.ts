// Start-up without recomputation: a revision's insights are kept in the store, so a restart serves them without analysing a review.
import assert from 'node:assert/strict';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { buildInsights } from '../src/core/insights/build.js';
import { buildReviewIndex, searchReviews } from '../src/core/search.js';
import { insightsJson } from '../src/snapshot/insights-bytes.js';
import { INSIGHTS_ANALYSER } from '../src/snapshot/snapshot.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { eventually, freshDatabase, startTestService, type TestService } from './helpers.js';

async function analysed(svc: TestService): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  const m = /^reviewcast_insights_analysed_reviews_total (\d+)$/m.exec(text);
  assert.ok(m, 'the counter is in /metrics');
  return Number(m[1]);
}

async function insights(svc: TestService): Promise<{ etag: string | null; body: string }> {
  const res = await fetch(`${svc.url}/insights.json`);
  assert.equal(res.status, 200);
  return { etag: res.headers.get('etag'), body: await res.text() };
}

describe('insights kept per revision in the store', () => {
  it('a restart on an unchanged revision serves /insights.json without running the analyser', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS });
    let before: { etag: string | null; body: string };
    try {
      before = await insights(first);
      assert.equal(await analysed(first), REVIEWS.length, 'the first start analyses every review');
    } finally {
      await first.close();
    }
    const second = await startTestService({ database });
    try {
      assert.equal(await analysed(second), 0, 'the restart analyses none');
      assert.deepEqual(await insights(second), before, 'the same bytes and ETag');
      assert.equal(await analysed(second), 0, 'nor on first use');
    } finally {
      await second.close();
    }
  });

  it('a new revision is analysed and kept; only the newest entry stays', async () => {
    const database = await freshDatabase();
    const svc = await startTestService({ database, business: BUSINESS, reviews: REVIEWS });
    let revision: number;
    try {
      const old = (await svc.store.getRevision()).revision;
      assert.notEqual(await svc.store.loadInsights(old, INSIGHTS_ANALYSER), null);
      const changed = { ...REVIEWS[0]!, text: 'Al was rude and late.', rating: 1 };
      await svc.store.importReviews({ reviews: [changed], replace: false, dryRun: false });
      revision = (await svc.store.getRevision()).revision;
      assert.ok(await eventually(async () => svc.server.live.current().revision.revision === revision, 10_000));
      assert.equal(await analysed(svc), REVIEWS.length + 1, 'only the changed review is analysed again');
      const doc = JSON.parse((await insights(svc)).body) as { per_review: Record<string, { sentiment: string }> };
      assert.equal(doc.per_review[changed.id]!.sentiment, 'negative');
      assert.equal(await svc.store.loadInsights(old, INSIGHTS_ANALYSER), null, 'the older revision entry is gone');
    } finally {
      await svc.close();
    }
    const again = await startTestService({ database });
    try {
      assert.equal(again.server.live.current().revision.revision, revision);
      assert.equal(await analysed(again), 0);
      const doc = JSON.parse((await insights(again)).body) as { per_review: Record<string, { sentiment: string }> };
      assert.equal(doc.per_review[REVIEWS[0]!.id]!.sentiment, 'negative');
    } finally {
      await again.close();
    }
  });

  it('a document kept by another analyser version is not used', async () => {
    const database = await freshDatabase();
    const first = await startTestService({ database, business: BUSINESS, reviews: REVIEWS });
    const { revision } = await first.store.getRevision();
    // As if an older release had kept it: same revision, another analyser.
    await first.store.saveInsights(revision, 'another-analyser', Buffer.from('not what this analyser made'));
    await first.close();
    const second = await startTestService({ database });
    try {
      assert.equal(await analysed(second), REVIEWS.length);
      assert.equal(JSON.parse((await insights(second)).body).review_count, REVIEWS.length);
      assert.notEqual(await second.store.loadInsights(revision, INSIGHTS_ANALYSER), null, 'and this analyser keeps its own');
    } finally {
      await second.close();
    }
  });

  it('an older revision does not replace a newer one kept by another replica', async () => {
    const svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
    try {
      await svc.store.saveInsights(1000, INSIGHTS_ANALYSER, Buffer.from('newer'));
      await svc.store.saveInsights(999, INSIGHTS_ANALYSER, Buffer.from('older'));
      assert.deepEqual(await svc.store.loadInsights(1000, INSIGHTS_ANALYSER), Buffer.from('newer'));
      assert.equal(await svc.store.loadInsights(999, INSIGHTS_ANALYSER), null);
    } finally {
      await svc.close();
    }
  });
});

describe('what a snapshot prepares is what it would build on first use', () => {
  it('the insights JSON made in chunks is JSON.stringify of the document, byte for byte', async () => {
    const many = Array.from({ length: 4500 }, (_, i) => ({ ...REVIEWS[i % REVIEWS.length]!, id: `01K${String(i).padStart(23, '0')}` }));
    const doc = buildInsights(BUSINESS, many, '2026-01-01T00:00:00.000Z');
    assert.ok((await insightsJson(doc, () => yieldToLoop())).equals(Buffer.from(JSON.stringify(doc))));
  });

  it('prepared technician and service filters find what filters built on first use find', async () => {
    const prepared = buildReviewIndex(BUSINESS, REVIEWS, 'x');
    await prepared.prepare(() => yieldToLoop(), 3);
    const lazy = buildReviewIndex(BUSINESS, REVIEWS, 'x');
    for (const q of [{ mentions_technician: 'Al' }, { mentions_technician: 'beatrice' }, { mentions_service: 'ac_repair' }, { mentions_service: 'drain' }, { mentions_technician: 'Zed' }]) {
      const ids = (index: typeof lazy) => searchReviews(index, { limit: 50, sort: 'newest', ...q }).reviews.map((r) => r.id);
      assert.deepEqual(ids(prepared), ids(lazy), JSON.stringify(q));
    }
    assert.ok(searchReviews(prepared, { limit: 50, sort: 'newest', mentions_technician: 'Al' }).reviews.length > 0);
  });
});
