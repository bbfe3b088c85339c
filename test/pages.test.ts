import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { ROOT, startTestService, type TestService } from './helpers.js';

/** Screenshots land here for a reviewer to look at (named in the README). */
const SHOTS = join(ROOT, 'test-output/screenshots');

let svc: TestService;
let browser: Browser;

before(async () => {
  svc = await startTestService({ business: DEMO_BUSINESS, reviews: demoReviews() });
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

interface Watched {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

/** A page that records console errors, failed requests and any request to another origin. */
async function open(path: string, opts: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, javaScriptEnabled: opts.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(svc.url).origin;
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) problems.push(`other origin: ${r.url()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(`${svc.url}${path}`, { waitUntil: 'networkidle' });
  return { page, context, problems };
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `page is ${scroll}px wide in a ${width}px viewport`);
}

describe('pages in Chromium', () => {
  for (const width of [375, 1280]) {
    for (const [path, name] of [['/', 'reviews'], ['/developers', 'developers'], ['/developers/mcp', 'mcp'], ['/developers/webhooks', 'webhooks']] as const) {
      it(`${path} at ${width}px: loads cleanly, usable width, screenshot`, async () => {
        const w = await open(path, { width });
        try {
          assert.deepEqual(w.problems, []);
          await noHorizontalScroll(w.page);
          assert.equal(await w.page.locator('main').count(), 1);
          assert.ok((await w.page.locator('nav[aria-label]').count()) >= 1);
          await w.page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
        } finally {
          await w.context.close();
        }
      });
    }
  }

  it('/ carries schema.org JSON-LD that parses and matches the data, and links both feeds', async () => {
    const w = await open('/');
    try {
      const ld = JSON.parse((await w.page.locator('script[type="application/ld+json"]').textContent())!) as {
        '@type': string;
        name: string;
        aggregateRating: { ratingValue: number; reviewCount: number };
        review: { reviewBody: string; reviewRating: { ratingValue: number } }[];
      };
      const data = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { aggregate_rating: { rating_value: number; review_count: number }; reviews: { text: string | null; rating: number }[] };
      assert.equal(ld['@type'], 'HomeAndConstructionBusiness');
      assert.equal(ld.name, DEMO_BUSINESS.name);
      assert.deepEqual([ld.aggregateRating.ratingValue, ld.aggregateRating.reviewCount], [data.aggregate_rating.rating_value, data.aggregate_rating.review_count]);
      const withText = data.reviews.filter((r) => r.text);
      assert.deepEqual(ld.review.slice(0, 3).map((r) => [r.reviewBody, r.reviewRating.ratingValue]), withText.slice(0, 3).map((r) => [r.text, r.rating]));
      const feeds = await w.page.locator('link[rel="alternate"]').evaluateAll((ls) => ls.map((l) => l.getAttribute('href')));
      assert.ok(feeds.includes(`${svc.url}/feed.xml`) && feeds.includes(`${svc.url}/api/feed.json`));
      assert.equal(await w.page.locator('#review-list > li').count(), 20);
    } finally {
      await w.context.close();
    }
  });

  it('filters use the search API, change the list and keep their state in the URL', async () => {
    const w = await open('/');
    try {
      const searched = w.page.waitForRequest((r) => r.url().includes('/api/reviews/search') && r.url().includes('rating=1'));
      await w.page.locator('select[name=rating]').selectOption('1');
      await searched;
      await w.page.waitForURL(/\?rating=1$/);
      await w.page.waitForFunction(() => document.querySelector('#review-status')?.textContent?.includes('match'));
      const stars = await w.page.locator('#review-list .stars').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert.ok(stars.length > 0);
      assert.ok(stars.every((s) => s === '1 out of 5 stars'), JSON.stringify(stars));
      await w.page.locator('select[name=technician]').selectOption('Tom');
      await w.page.waitForURL(/rating=1&technician=Tom/);
      await w.page.waitForFunction(() => /\d+ reviews? match/.test(document.querySelector('#review-status')?.textContent ?? ''));
      const texts = await w.page.locator('#review-list article > p').allTextContents();
      assert.ok(texts.length > 0 && texts.every((t) => /\b(Tom|Tommy|Tom Becker)\b/.test(t)), JSON.stringify(texts.slice(0, 3)));
      // The URL alone restores the state: reload and the server renders the same filters.
      await w.page.reload({ waitUntil: 'networkidle' });
      assert.equal(await w.page.locator('select[name=rating]').inputValue(), '1');
      assert.equal(await w.page.locator('select[name=technician]').inputValue(), 'Tom');
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  it('works without JavaScript: the filter form and paging are plain links and GETs', async () => {
    const w = await open('/', { javaScriptEnabled: false });
    try {
      await w.page.locator('select[name=rating]').selectOption('5');
      await w.page.getByRole('button', { name: 'Apply filters' }).click();
      await w.page.waitForURL(/rating=5/);
      const stars = await w.page.locator('#review-list .stars').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert.equal(stars.length, 20);
      assert.ok(stars.every((s) => s === '5 out of 5 stars'));
      await w.page.getByRole('link', { name: 'Older' }).click();
      await w.page.waitForURL(/page=2/);
      assert.match((await w.page.locator('#review-status').textContent())!, /showing 21 to/);
    } finally {
      await w.context.close();
    }
  });

  it('is keyboard-usable: the first Tab reaches the skip link, and every form control has a label', async () => {
    const w = await open('/');
    try {
      await w.page.keyboard.press('Tab');
      assert.equal(await w.page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
      const unlabeled = await w.page.locator('form.filters input, form.filters select').evaluateAll((els) => els.filter((e) => !e.closest('label')).length);
      assert.equal(unlabeled, 0);
    } finally {
      await w.context.close();
    }
  });

  it('the API reference renders from the OpenAPI document with assets from this origin only', async () => {
    for (const width of [375, 1280]) {
      const w = await open('/developers/api', { width });
      try {
        // Scalar draws the operations of the OpenAPI document; the first tag group starts open.
        await w.page.getByText('Full reviews dataset').first().waitFor({ timeout: 15_000 });
        for (const tag of ['Reviews', 'Feeds', 'MCP', 'WebSub']) assert.ok((await w.page.getByText(tag, { exact: true }).count()) > 0, tag);
        assert.deepEqual(w.problems, []);
        await w.page.screenshot({ path: join(SHOTS, `api-reference-${width}.png`) });
      } finally {
        await w.context.close();
      }
    }
  });

  it('the MCP page lists the tools the server itself lists', async () => {
    const w = await open('/developers/mcp');
    try {
      const shown = await w.page.locator('table th[scope="row"] code').allTextContents();
      const init = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      const list = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': init.headers.get('mcp-session-id')! },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      const tools = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
      assert.deepEqual(shown, tools);
      assert.match((await w.page.locator('main').textContent())!, new RegExp(`claude mcp add --transport http reviews ${svc.url}/mcp`));
    } finally {
      await w.context.close();
    }
  });
});

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
  it('are left out of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(!('/developers' in doc.paths) && !('/' in doc.paths));
  });
});
