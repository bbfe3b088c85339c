// The pages in a real Chromium (driven by playwright-core) with axe-core: layout, filters, no-JS use, keyboard, the review list script, the API reference.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { demoReviews } from '../src/core/demo/reviews.js';
import { axeViolations, browserSkip, launchBrowser } from './browser.js';
import { ROOT, startTestService, type TestService } from './helpers.js';

/** Screenshots land here for a reviewer to look at (named in docs/pages.md). */
const SHOTS = join(ROOT, 'test-output/screenshots');

const skip = browserSkip;
let svc: TestService;
let browser: Browser;

before(async () => {
  if (skip) return;
  svc = await startTestService({ business: DEMO_BUSINESS, reviews: demoReviews() });
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

interface Watched {
  page: Page;
  context: BrowserContext;
  problems: string[];
  warnings: string[];
}

/** A page that records console errors, failed requests and any request to another origin. */
async function open(path: string, opts: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, javaScriptEnabled: opts.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems: string[] = [];
  const warnings: string[] = [];
  const origin = new URL(svc.url).origin;
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    if (m.type() === 'warning') warnings.push(m.text());
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
  return { page, context, problems, warnings };
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `page is ${scroll}px wide in a ${width}px viewport`);
}

describe('pages in Chromium', () => {
  for (const width of [375, 1280]) {
    for (const [path, name] of [['/', 'reviews'], ['/developers', 'developers'], ['/developers/api', 'api-reference'], ['/developers/mcp', 'mcp'], ['/developers/webhooks', 'webhooks'], ['/developers/widget', 'widget-builder']] as const) {
      it(`${path} at ${width}px: loads cleanly, usable width, screenshot`, { skip }, async () => {
        const w = await open(path, { width });
        try {
          assert.deepEqual(w.problems, []);
          await noHorizontalScroll(w.page);
          assert.deepEqual(await axeViolations(w.page), []);
          assert.equal(await w.page.locator('main').count(), 1);
          assert.ok((await w.page.locator('nav[aria-label]').count()) >= 1);
          await w.page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
        } finally {
          await w.context.close();
        }
      });
    }
    it(`a review's permalink page and /embed at ${width}px: load cleanly, usable width, screenshot`, { skip }, async () => {
      const data = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: { url: string }[] };
      for (const [path, name] of [[new URL(data.reviews[0]!.url).pathname, 'review-permalink'], ['/embed', 'embed']] as const) {
        const w = await open(path, { width });
        try {
          assert.deepEqual(w.problems, [], path);
          await noHorizontalScroll(w.page);
          assert.deepEqual(await axeViolations(w.page), [], path);
          await w.page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
        } finally {
          await w.context.close();
        }
      }
    });
  }

  it('/ says how many reviews there are and how many are verified, in the header, title, description and llms.txt', { skip }, async () => {
    const data = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { aggregate_rating: { rating_value: number; review_count: number }; reviews: { verified: boolean }[] };
    const total = data.aggregate_rating.review_count;
    const verified = data.reviews.filter((r) => r.verified).length;
    assert.ok(verified < total, 'the demo data has unverified reviews');
    const sentence = `Rated ${data.aggregate_rating.rating_value} out of 5 from ${total.toLocaleString('en-US')} reviews, ${verified.toLocaleString('en-US')} verified.`;
    const w = await open('/');
    try {
      assert.equal(await w.page.locator('main > p.muted').first().textContent(), sentence);
      assert.ok((await w.page.getAttribute('meta[name=description]', 'content'))!.startsWith(sentence));
      assert.doesNotMatch(await w.page.title(), /verified/i);
      assert.doesNotMatch((await w.page.locator('body').textContent())!, /\d verified reviews/);
      // Partial stars: the filled row covers rating/5 of the row, and the number is written out.
      const fill = await w.page.locator('.rating-line .star-fill').getAttribute('style');
      assert.equal(fill, `width:${((data.aggregate_rating.rating_value / 5) * 100).toFixed(1)}%`);
      assert.match((await w.page.locator('.rating-line').textContent())!, new RegExp(`${data.aggregate_rating.rating_value}.*out of 5, from ${total.toLocaleString('en-US')} reviews`));
    } finally {
      await w.context.close();
    }
    const llms = await (await fetch(`${svc.url}/llms.txt`)).text();
    assert.ok(llms.includes(`> ${sentence}`), llms.slice(0, 300));
    assert.doesNotMatch(llms, /verified reviews/);
  });

  it('/ marks up only first-party reviews shown on the page, with the profile type, sameAs and honest counts', { skip }, async () => {
    const data = (await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: { text: string | null; rating: number; source: string; date: string; author: string }[] };
    const own = data.reviews.filter((r) => r.source === 'website');
    assert.ok(own.length > 0 && own.length < data.reviews.length);
    const ld = async (page: Page) =>
      JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as {
        '@type': string;
        name: string;
        sameAs: string[];
        aggregateRating: { ratingValue: number; ratingCount: number; reviewCount: number };
        review?: { author: { name: string }; datePublished: string; reviewBody?: string; reviewRating: { ratingValue: number } }[];
      };
    for (const p of [1, 2, 3]) {
      const w = await open(p === 1 ? '/' : `/?page=${p}`);
      try {
        const doc = await ld(w.page);
        assert.equal(doc['@type'], DEMO_BUSINESS.schema_org_type);
        assert.equal(doc.name, DEMO_BUSINESS.name);
        assert.deepEqual(doc.sameAs, DEMO_BUSINESS.same_as);
        const mean = Math.round((own.reduce((s, r) => s + r.rating, 0) / own.length) * 100) / 100;
        assert.deepEqual([doc.aggregateRating.ratingValue, doc.aggregateRating.ratingCount, doc.aggregateRating.reviewCount], [mean, own.length, own.filter((r) => r.text).length]);
        const shown = data.reviews.slice((p - 1) * 20, p * 20).filter((r) => r.source === 'website');
        assert.deepEqual((doc.review ?? []).map((r) => [r.author.name, r.datePublished, r.reviewBody ?? null, r.reviewRating.ratingValue]), shown.map((r) => [r.author, r.date, r.text, r.rating]));
        // Each page of the list is its own canonical page.
        assert.equal(await w.page.getAttribute('link[rel=canonical]', 'href'), p === 1 ? `${svc.url}/` : `${svc.url}/?page=${p}`);
        assert.equal(await w.page.locator('meta[name=robots]').count(), 0);
        const feeds = await w.page.locator('link[rel="alternate"]').evaluateAll((ls) => ls.map((l) => l.getAttribute('href')));
        assert.ok(feeds.includes(`${svc.url}/feed.xml`) && feeds.includes(`${svc.url}/api/feed.json`));
        assert.equal(await w.page.locator('#review-list > li').count(), 20);
      } finally {
        await w.context.close();
      }
    }
    const filtered = await (await fetch(`${svc.url}/?rating=5&page=2`)).text();
    assert.match(filtered, /<meta name="robots" content="noindex">/);
    assert.doesNotMatch(filtered, /rel="canonical"|application\/ld\+json/);
  });

  it('filters use the search API, change the list and keep their state in the URL', { skip }, async () => {
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

  it('works without JavaScript: the filter form and paging are plain links and GETs', { skip }, async () => {
    const w = await open('/', { javaScriptEnabled: false });
    try {
      await w.page.locator('select[name=rating]').selectOption('5');
      await w.page.getByRole('button', { name: 'Apply filters' }).click();
      await w.page.waitForURL(/rating=5/);
      const stars = await w.page.locator('#review-list .stars').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert.equal(stars.length, 20);
      assert.ok(stars.every((s) => s === '5 out of 5 stars'));
      await w.page.getByRole('link', { name: 'Next' }).click();
      await w.page.waitForURL(/page=2/);
      assert.match((await w.page.locator('#review-status').textContent())!, /showing 21 to/);
    } finally {
      await w.context.close();
    }
  });

  it('is keyboard-usable: the first Tab reaches the skip link, and every form control has a label', { skip }, async () => {
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

  it('the interactive API reference (Scalar, on its own page) renders the served document without errors or validation warnings', { skip }, async () => {
    for (const width of [375, 1280]) {
      const w = await open('/developers/api/interactive', { width });
      try {
        // Scalar draws the operations of the OpenAPI document; the first tag group starts open.
        await w.page.getByText('Full reviews dataset').first().waitFor({ timeout: 15_000 });
        for (const tag of ['Reviews', 'Feeds', 'MCP', 'WebSub']) assert.ok((await w.page.getByText(tag, { exact: true }).count()) > 0, tag);
        assert.deepEqual(w.problems, []);
        // Scalar checks the document against its own schema model and warns ("Expected union value") on what it cannot read.
        assert.deepEqual(w.warnings.filter((t) => /validation|expected/i.test(t)), []);
        // Scalar is the page: none of the site's landmarks or headings around it.
        assert.equal(await w.page.locator('header.site, footer.site, main#main').count(), 0);
        await w.page.screenshot({ path: join(SHOTS, `api-interactive-${width}.png`) });
      } finally {
        await w.context.close();
      }
    }
  });

  it('the API reference page loads no Scalar and links every schema it names', { skip }, async () => {
    const w = await open('/developers/api');
    try {
      const scripts = await w.page.locator('script[src]').evaluateAll((els) => els.map((e) => e.getAttribute('src')));
      assert.ok(scripts.every((src) => !/scalar|api-reference/.test(src!)), JSON.stringify(scripts));
      const targets = await w.page.locator('main a[href^="/developers/api#"]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('href')!.split('#')[1]!))]);
      assert.ok(targets.length > 10);
      for (const id of targets) assert.equal(await w.page.locator(`[id="${id}"]`).count(), 1, id);
    } finally {
      await w.context.close();
    }
  });

  it('wide tables on a phone: labelled, keyboard-reachable regions, and the tables fit', { skip }, async () => {
    for (const path of ['/developers', '/developers/api', '/developers/mcp', '/developers/webhooks']) {
      const w = await open(path, { width: 375 });
      try {
        await noHorizontalScroll(w.page);
        const regions = await w.page.locator('main table').evaluateAll((tables) =>
          tables.map((t) => {
            const r = t.parentElement!;
            return { role: r.getAttribute('role'), label: r.getAttribute('aria-label'), tabindex: r.getAttribute('tabindex'), overflow: t.scrollWidth - r.clientWidth, right: t.getBoundingClientRect().right };
          }),
        );
        assert.ok(regions.length > 0, path);
        for (const [i, r] of regions.entries()) {
          assert.equal(r.role, 'region', `${path} table ${i}`);
          assert.ok(r.label, `${path} table ${i} has a label`);
          assert.equal(r.tabindex, '0', `${path} table ${i}`);
          assert.ok(r.overflow <= 1, `${path} table ${i} is ${r.overflow}px wider than its region`);
          assert.ok(r.right <= 375, `${path} table ${i} ends at ${r.right}px`);
        }
        // Tab reaches the first region.
        const first = w.page.locator('main [role=region]').first();
        await first.focus();
        assert.equal(await first.evaluate((e) => e === document.activeElement), true);
      } finally {
        await w.context.close();
      }
    }
  });

  it('copy buttons copy the command with script, and stay out of the way without it', { skip }, async () => {
    const w = await open('/developers');
    try {
      await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(svc.url).origin });
      const block = w.page.locator('.copyable').first();
      await block.locator('button.copy').click();
      assert.equal(await w.page.evaluate(() => navigator.clipboard.readText()), await block.locator('code').textContent());
      assert.equal(await block.locator('button.copy').textContent(), 'Copied');
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
    const nojs = await open('/developers', { javaScriptEnabled: false });
    try {
      assert.ok((await nojs.page.locator('.copyable').count()) > 10);
      assert.equal(await nojs.page.locator('button.copy:visible').count(), 0);
      assert.match((await nojs.page.locator('.copyable code').first().textContent())!, /^curl /);
    } finally {
      await nojs.context.close();
    }
  });

  it('the MCP page lists the tools and prompts the server itself lists', { skip }, async () => {
    const w = await open('/developers/mcp');
    try {
      const shown = await w.page.locator('section[aria-labelledby="tools-h"] table th[scope="row"] code').allTextContents();
      const shownPrompts = await w.page.locator('section[aria-labelledby="prompts-h"] table th[scope="row"] code').allTextContents();
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
      const prompts = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': init.headers.get('mcp-session-id')! },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'prompts/list' }),
      });
      assert.deepEqual(shownPrompts, ((await prompts.json()) as { result: { prompts: { name: string }[] } }).result.prompts.map((p) => p.name));
      assert.match((await w.page.locator('main').textContent())!, new RegExp(`claude mcp add --transport http reviews ${svc.url}/mcp`));
    } finally {
      await w.context.close();
    }
  });
});

/** Counts the search API requests a page makes from now on, and the history entries it adds. */
async function watchSearches(page: Page): Promise<{ urls: string[]; historyGrowth(): Promise<number> }> {
  const urls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/reviews/search')) urls.push(r.url());
  });
  const start = await page.evaluate(() => history.length);
  return { urls, historyGrowth: async () => (await page.evaluate(() => history.length)) - start };
}

const statusText = (page: Page) => page.locator('#review-status').textContent();
const settled = (page: Page) => page.waitForFunction(() => !/Loading/.test(document.querySelector('#review-status')?.textContent ?? 'Loading'));

describe('the review list script', () => {
  it('J1: "Show more" follows the cursor to the last review, and moves focus to the first new review', { skip }, async () => {
    const w = await open('/');
    try {
      const total = ((await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: { id: string }[] }).reviews.length;
      assert.ok(total > 100, 'more reviews than the old cap of 100');
      await w.page.locator('select[name=sort]').selectOption('oldest');
      await w.page.waitForURL(/\?sort=oldest$/);
      await settled(w.page);
      let clicks = 0;
      while ((await w.page.getByRole('button', { name: 'Show more' }).count()) > 0) {
        const before = await w.page.locator('#review-list > li').count();
        await w.page.getByRole('button', { name: 'Show more' }).click();
        await w.page.waitForFunction((n) => document.querySelectorAll('#review-list > li').length > n, before);
        // Focus lands on the first review that was added, not on <body>.
        assert.equal(await w.page.evaluate(() => [...document.querySelectorAll('#review-list article')].indexOf(document.activeElement as Element)), before);
        clicks++;
        assert.ok(clicks < 100);
      }
      const labels = await w.page.locator('#review-list article').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert.equal(labels.length, total);
      assert.match((await statusText(w.page))!, new RegExp(`^${total.toLocaleString('en-US')} reviews; showing 1 to ${total.toLocaleString('en-US')}, oldest first\\.$`));
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  it('J2: typing a date searches once and adds one history entry, not one per digit', { skip }, async () => {
    const w = await open('/');
    try {
      const watch = await watchSearches(w.page);
      await w.page.locator('input[name=since]').focus();
      await w.page.keyboard.type('03152026', { delay: 80 });
      assert.equal(await w.page.locator('input[name=since]').inputValue(), '2026-03-15');
      await w.page.waitForURL(/since=2026-03-15/);
      await settled(w.page);
      await w.page.waitForTimeout(800);
      assert.equal(watch.urls.length, 1, watch.urls.join('\n'));
      assert.equal(await watch.historyGrowth(), 1);
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  it('J3: arrow keys through a select search once, for the option they stop on', { skip }, async () => {
    const w = await open('/');
    try {
      const watch = await watchSearches(w.page);
      await w.page.locator('select[name=rating]').focus();
      for (let i = 0; i < 3; i++) await w.page.keyboard.press('ArrowDown', { delay: 60 });
      await w.page.waitForURL(/\?rating=3$/);
      await settled(w.page);
      await w.page.waitForTimeout(800);
      assert.equal(watch.urls.length, 1, watch.urls.join('\n'));
      assert.match(watch.urls[0]!, /rating=3/);
      assert.equal(await watch.historyGrowth(), 1);
    } finally {
      await w.context.close();
    }
  });

  it('J4: an alias or unknown name in the URL shows in the select and survives the next change; an unknown one carries the notice through changes and Back', { skip }, async () => {
    const notice = (page: Page) => page.locator('#review-notices');
    for (const [path, field, shown, kept, unknown] of [
      ['/?technician=DJ', 'technician', 'Dwayne', /technician=Dwayne/, false],
      ['/?service=AC', 'service', 'ac_repair', /service=ac_repair/, false],
      ['/?technician=Zed', 'technician', 'Zed', /technician=Zed/, true],
    ] as const) {
      const w = await open(path);
      try {
        assert.equal(await w.page.locator(`select[name=${field}]`).inputValue(), shown, path);
        assert.equal(await notice(w.page).isVisible(), unknown, path);
        await w.page.locator('select[name=rating]').selectOption('5');
        await w.page.waitForURL(/rating=5/);
        await settled(w.page);
        assert.match(w.page.url(), kept);
        assert.equal(await notice(w.page).isVisible(), unknown, `${path}, drawn by the script`);
        if (unknown) {
          assert.match((await notice(w.page).textContent())!, /^"Zed" is not a technician on the business's roster, so reviews were matched on that word alone\. On the roster: Marco/);
          await w.page.locator('select[name=technician]').selectOption('Marco');
          await w.page.waitForURL(/technician=Marco/);
          await settled(w.page);
          assert.equal(await notice(w.page).isVisible(), false, 'a roster name: no notice');
          // Chosen again (the select keeps the name from the URL): the script draws the notice itself.
          await w.page.locator('select[name=technician]').selectOption('Zed');
          await w.page.waitForURL(/technician=Zed/);
          await settled(w.page);
          assert.match((await notice(w.page).textContent())!, /^"Zed" is not a technician/, 'drawn by the script');
          await w.page.locator('select[name=technician]').selectOption('Marco');
          await w.page.waitForURL(/technician=Marco/);
          await settled(w.page);
          await w.page.goBack();
          await w.page.waitForURL(/technician=Zed/);
          await settled(w.page);
          assert.equal(await notice(w.page).isVisible(), true, 'Back restores the notice');
        }
        assert.deepEqual(w.problems, []);
      } finally {
        await w.context.close();
      }
    }
  });

  it('J4b: the alert naming filters the URL could not use goes when the script draws a new list and comes back with Back', { skip }, async () => {
    const alert = (page: Page) => page.locator('#review-errors [role=alert]');
    const w = await open('/?rating=9&page=x');
    try {
      assert.equal(await alert(w.page).isVisible(), true);
      assert.match((await alert(w.page).textContent())!, /left out: Stars \(choose 1 to 5 stars\); Page \(a page number from 1\)\./);
      assert.deepEqual(await axeViolations(w.page), [], 'the page with its alert');
      await w.page.locator('select[name=rating]').selectOption('5');
      await w.page.waitForURL(/rating=5/);
      await settled(w.page);
      assert.equal(await alert(w.page).count(), 0, 'the new list used every filter');
      await w.page.goBack();
      await w.page.waitForURL(/rating=9/);
      await settled(w.page);
      assert.equal(await alert(w.page).isVisible(), true, 'Back to the URL shows its alert again');
      assert.match((await alert(w.page).textContent())!, /left out: Stars/, 'Back to the URL restores its alert');
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  it('J4c: a filter the search refuses ("From" after "To") is named and left out, and the list is the answer to the rest, as the server page does', { skip }, async () => {
    const alert = (page: Page) => page.locator('#review-errors [role=alert]');
    const w = await open('/?rating=5');
    try {
      await w.page.locator('input[name=since]').fill('2026-06-01');
      await w.page.locator('input[name=until]').fill('2026-03-01');
      await w.page.waitForURL(/until=2026-03-01/);
      await settled(w.page);
      assert.equal(await alert(w.page).isVisible(), true);
      assert.equal(await alert(w.page).textContent(), 'Some filters could not be used and were left out: To (enter a date such as 2026-03-05, not before From). Clear filters');
      // The list and its count are those of the filters that could be used: five stars from June 1.
      const kept = ((await (await fetch(`${svc.url}/api/reviews/search?rating=5&since=2026-06-01&limit=1`)).json()) as { matched: number }).matched;
      assert.ok(kept > 0);
      assert.match((await statusText(w.page))!, new RegExp(`^${kept.toLocaleString('en-US')} reviews match; showing 1 to ${Math.min(kept, 20)}, newest first\\.$`));
      const dates = await w.page.locator('#review-list time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
      assert.ok(dates.length > 0 && dates.every((d) => d >= '2026-06-01'), dates.join(' '));
      // The server page for the same URL says the same.
      const served = await (await fetch(`${svc.url}/?rating=5&since=2026-06-01&until=2026-03-01`)).text();
      assert.ok(served.includes('left out: To (enter a date such as 2026-03-05, not before From).'));
      assert.deepEqual(await axeViolations(w.page), []);
      // The one refused search is the only request that failed.
      assert.deepEqual(w.problems.filter((p) => !/^(HTTP 400: .*\/api\/reviews\/search\?.*until=2026-03-01|console: Failed to load resource: .* 400)/.test(p)), []);
    } finally {
      await w.context.close();
    }
  });

  it('J5: a filter set by the script shows a Clear link that clears it in place', { skip }, async () => {
    const w = await open('/');
    try {
      assert.equal(await w.page.getByRole('link', { name: 'Clear filters' }).count(), 0);
      await w.page.locator('select[name=rating]').selectOption('2');
      await w.page.waitForURL(/\?rating=2$/);
      await settled(w.page);
      await w.page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      await w.page.getByRole('link', { name: 'Clear filters' }).click();
      await w.page.waitForURL((u) => u.search === '');
      await settled(w.page);
      assert.equal(await w.page.locator('select[name=rating]').inputValue(), '');
      assert.match((await statusText(w.page))!, /^\d[\d,]* reviews; showing 1 to 20, newest first\.$/);
      assert.equal(await w.page.evaluate(() => (window as unknown as { marker?: number }).marker), 1, 'no reload');
      assert.equal(await w.page.getByRole('link', { name: 'Clear filters' }).count(), 0);
    } finally {
      await w.context.close();
    }
  });

  it('J6: the script draws the list and status in the same words and markup as the server', { skip }, async () => {
    const w = await open('/');
    try {
      await w.page.locator('select[name=rating]').selectOption('1');
      await w.page.waitForURL(/\?rating=1$/);
      await settled(w.page);
      const describeList = (root: ParentNode) => ({
        status: root.querySelector('#review-status')?.textContent,
        cards: [...root.querySelectorAll('#review-list > li')].map((li) => ({
          text: li.textContent!.replace(/\s+/g, ' ').trim(),
          markup: [...li.querySelectorAll('*')].map((e) => `${e.tagName}[${[...e.attributes].map((a) => `${a.name}=${a.value}`).sort().join(',')}]`),
        })),
      });
      const drawn = await w.page.evaluate(`(${describeList.toString()})(document)`);
      const served = await w.page.evaluate(`fetch('/?rating=1').then((r) => r.text()).then((t) => (${describeList.toString()})(new DOMParser().parseFromString(t, 'text/html')))`);
      assert.deepEqual(drawn, served);
      const text = (drawn as { cards: { text: string }[] }).cards.map((c) => c.text).join('\n');
      assert.match(text, /on Google|on Yelp|on this website|on Facebook/);
      assert.doesNotMatch(text, /on google|via /);
      assert.match(text, /[A-Z][a-z]{2} \d{1,2}, 20\d\d/);
    } finally {
      await w.context.close();
    }
  });

  it('J7: Back restores the filters without a reload, the skip link does not reload, and a stale search is aborted', { skip }, async () => {
    const w = await open('/');
    try {
      await w.page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      const reloaded = async () => (await w.page.evaluate(() => (window as unknown as { marker?: number }).marker)) !== 1;
      await w.page.locator('select[name=rating]').selectOption('4');
      await w.page.waitForURL(/\?rating=4$/);
      await settled(w.page);
      await w.page.goBack();
      await w.page.waitForURL((u) => u.search === '');
      await w.page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[name=rating]')?.value === '');
      await settled(w.page);
      assert.equal(await reloaded(), false, 'Back did not reload');
      assert.match((await statusText(w.page))!, /^\d[\d,]* reviews; showing 1 to 20, newest first\.$/);
      await w.page.goForward();
      await w.page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[name=rating]')?.value === '4');
      await settled(w.page);
      assert.ok((await w.page.locator('#review-list .stars').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).every((s) => s === '4 out of 5 stars'));
      // The skip link changes only the fragment.
      await w.page.keyboard.press('Tab');
      await w.page.keyboard.press('Enter');
      await w.page.waitForURL(/#main$/);
      await w.page.waitForTimeout(300);
      assert.equal(await reloaded(), false, 'the skip link did not reload');

      // A slow answer to an older search must not overwrite a newer one: the older is aborted.
      await w.page.route(/rating=2/, async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue().catch(() => undefined);
      });
      const aborted = w.page.waitForEvent('requestfailed', (r) => /rating=2/.test(r.url()));
      await w.page.locator('select[name=rating]').selectOption('2');
      await w.page.waitForRequest((r) => /rating=2/.test(r.url()));
      await w.page.locator('select[name=rating]').selectOption('3');
      await aborted;
      await w.page.waitForURL(/\?rating=3$/);
      await w.page.waitForTimeout(2000);
      assert.ok((await w.page.locator('#review-list .stars').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).every((s) => s === '3 out of 5 stars'));
      assert.match((await statusText(w.page))!, /match; showing 1 to/);
    } finally {
      await w.context.close();
    }
  });
});

describe('the review page, ordered and controlled like a consumer site', () => {
  it('leads with the rating and histogram, then the reviews, then the rest', { skip }, async () => {
    const html = await (await fetch(`${svc.url}/`)).text();
    const at = (needle: string) => {
      const i = html.indexOf(needle);
      assert.ok(i > 0, needle);
      return i;
    };
    assert.ok(at('id="rating-h"') < at('id="reviews-h"'));
    assert.ok(at('id="reviews-h"') < at('id="aspects-h"'));
    assert.ok(at('id="reviews-h"') < at('id="about-h"'));
  });

  it('a bar of the histogram filters to that rating, with and without JavaScript', { skip }, async () => {
    for (const javaScriptEnabled of [true, false]) {
      const w = await open('/', { javaScriptEnabled });
      try {
        await w.page.getByRole('link', { name: '1 star', exact: true }).click();
        await w.page.waitForURL(/\?rating=1(#reviews)?$/);
        if (javaScriptEnabled) await w.page.waitForFunction(() => /match/.test(document.querySelector('#review-status')?.textContent ?? ''));
        const stars = await w.page.locator('#review-list .stars').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
        assert.ok(stars.length > 0 && stars.every((s) => s === '1 out of 5 stars'), `${javaScriptEnabled}: ${JSON.stringify(stars)}`);
        assert.equal(await w.page.locator('select[name=rating]').inputValue(), '1');
        assert.deepEqual(w.problems, []);
      } finally {
        await w.context.close();
      }
    }
  });

  it('sorts and toggles without JavaScript, with a short URL (empty fields and the default order left out)', { skip }, async () => {
    const w = await open('/', { javaScriptEnabled: false });
    try {
      await w.page.locator('select[name=sort]').selectOption('lowest');
      await w.page.getByLabel('With owner reply').check();
      await w.page.getByRole('button', { name: 'Apply filters' }).click();
      await w.page.waitForURL((u) => u.search === '?sort=lowest&with_reply=true');
      assert.match((await statusText(w.page))!, /^\d[\d,]* reviews? match; showing 1 to \d+, lowest rated first\.$/);
      const cards = await w.page.locator('#review-list article').evaluateAll((els) => els.map((e) => [e.querySelector('.stars')!.getAttribute('aria-label'), e.querySelector('.reply') !== null]));
      assert.ok(cards.length > 0 && cards.every(([, replied]) => replied));
      const ratings = cards.map(([label]) => Number(String(label)[0]));
      assert.deepEqual(ratings, [...ratings].sort());
      assert.ok(await w.page.getByLabel('With owner reply').isChecked());
    } finally {
      await w.context.close();
    }
  });

  it('the text toggle works with JavaScript through the API', { skip }, async () => {
    const w = await open('/?with_text=false');
    try {
      assert.ok(!(await w.page.getByLabel('With text only').isChecked()));
      const texts = await w.page.locator('#review-list article > p').allTextContents();
      assert.ok(texts.length > 0 && texts.every((t) => t === 'Rating only, no written review.'));
      await w.page.getByLabel('With text only').check();
      await w.page.waitForURL((u) => u.search === '?with_text=true');
      await settled(w.page);
      const after = await w.page.locator('#review-list article > p').allTextContents();
      assert.ok(after.length === 20 && after.every((t) => t !== 'Rating only, no written review.'));
    } finally {
      await w.context.close();
    }
  });

  it('has page numbers; the last page shows the last reviews', { skip }, async () => {
    const count = ((await (await fetch(`${svc.url}/reviews.json`)).json()) as { aggregate_rating: { review_count: number } }).aggregate_rating.review_count;
    const pages = Math.ceil(count / 20);
    const w = await open('/', { javaScriptEnabled: false });
    try {
      const numbers = await w.page.locator('#pager ul.pages li').allTextContents();
      assert.deepEqual(numbers, ['1', '2', '3', '…', String(pages)]);
      assert.equal(await w.page.locator('#pager [aria-current=page]').textContent(), '1');
      await w.page.getByRole('link', { name: `Page ${pages}`, exact: true }).click();
      await w.page.waitForURL(new RegExp(`page=${pages}$`));
      assert.equal(await statusText(w.page), `${count.toLocaleString('en-US')} reviews; showing ${((pages - 1) * 20 + 1).toLocaleString('en-US')} to ${count.toLocaleString('en-US')}, newest first.`);
      assert.deepEqual(await w.page.locator('#pager ul.pages li').allTextContents(), ['1', '…', String(pages - 2), String(pages - 1), String(pages)]);
    } finally {
      await w.context.close();
    }
  });

  it('says plainly when nothing matches, with a way to clear the filters', { skip }, async () => {
    const w = await open('/?query=zzqqxx');
    try {
      assert.equal(await statusText(w.page), 'No reviews match these filters.');
      assert.ok(await w.page.getByRole('link', { name: 'Clear filters' }).isVisible());
      assert.equal(await w.page.locator('#review-list > li').count(), 0);
    } finally {
      await w.context.close();
    }
  });

  it('puts a call button and whether the business is open now above the rating, in its time zone', { skip }, async () => {
    // Monday 10:00 and Sunday 10:00 in Portland (UTC-8 in November); the visitor is in Tokyo.
    for (const [when, words] of [
      ['2026-11-16T18:00:00Z', 'Open now, until 19:00'],
      ['2026-11-15T18:00:00Z', 'Closed now, opens Mon 07:00'],
      ['2026-11-21T14:00:00Z', 'Closed now, opens 08:00'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 375, height: 800 }, timezoneId: 'Asia/Tokyo' });
      try {
        const page = await context.newPage();
        await page.clock.setFixedTime(new Date(when));
        await page.goto(`${svc.url}/`, { waitUntil: 'networkidle' });
        const call = page.getByRole('link', { name: `Call ${DEMO_BUSINESS.telephone}` });
        assert.equal(await call.getAttribute('href'), 'tel:+15035550142');
        assert.equal(await page.locator('#open-now').textContent(), words, when);
        assert.match((await page.locator('.contact-bar .hours').textContent())!, /Mon–Fri 07:00–19:00 · Sat 08:00–16:00/);
        // Both fit in the first screen of a phone, above the rating.
        const callBox = (await call.boundingBox())!;
        assert.ok(callBox.y + callBox.height < 800 && callBox.y < (await page.locator('#rating-h').boundingBox())!.y);
      } finally {
        await context.close();
      }
    }
  });

  it('keeps developer links out of the review page header and in the footer', { skip }, async () => {
    const w = await open('/', { width: 375 });
    try {
      assert.equal(await w.page.locator('header.site a[href^="/developers"]').count(), 0);
      for (const name of ['Developers', 'API reference', 'MCP', 'WebSub', 'Widget']) {
        assert.ok(await w.page.getByRole('navigation', { name: 'For developers' }).getByRole('link', { name, exact: true }).isVisible(), name);
      }
    } finally {
      await w.context.close();
    }
    const dev = await open('/developers', { width: 375 });
    try {
      assert.equal(await dev.page.locator('header.site nav a[href="/developers/api"]').count(), 1);
    } finally {
      await dev.context.close();
    }
  });

  it('"What people mention" chips search for their phrase, with and without JavaScript, and the phrase is marked in the reviews', { skip }, async () => {
    for (const javaScriptEnabled of [true, false]) {
      const w = await open('/', { javaScriptEnabled, width: 375 });
      try {
        const chips = w.page.getByRole('list', { name: 'What people mention' }).getByRole('link');
        assert.ok((await chips.count()) >= 3);
        const chip = chips.first();
        const phrase = (await chip.getAttribute('data-query'))!;
        const count = Number((await chip.locator('.count').textContent())!.replace(/,/g, ''));
        await chip.click();
        await w.page.waitForURL((u) => new URLSearchParams(u.search).get('query') === phrase);
        if (javaScriptEnabled) await w.page.waitForFunction(() => /match/.test(document.querySelector('#review-status')?.textContent ?? ''));
        assert.match((await statusText(w.page))!, new RegExp(`^${count} reviews? match;`));
        const marks = await w.page.locator('#review-list article > p mark').allTextContents();
        assert.ok(marks.length >= Math.min(count, 20) && marks.every((m) => m.toLowerCase() === phrase.toLowerCase()), `${javaScriptEnabled}: ${JSON.stringify(marks.slice(0, 3))}`);
        assert.equal(await w.page.locator('input[name=query]').inputValue(), phrase);
        assert.deepEqual(w.problems, []);
      } finally {
        await w.context.close();
      }
    }
  });

  it('the typed text is marked in the results the script draws, matching any case', { skip }, async () => {
    const w = await open('/');
    try {
      await w.page.locator('input[name=query]').fill('ON TIME');
      await w.page.locator('input[name=query]').press('Enter');
      await w.page.waitForURL(/query=ON\+TIME/);
      await settled(w.page);
      const marks = await w.page.locator('#review-list article > p mark').allTextContents();
      assert.ok(marks.length > 0 && marks.every((m) => m.toLowerCase() === 'on time'), JSON.stringify(marks));
    } finally {
      await w.context.close();
    }
  });

  it('on a phone the six filter fields sit behind one "Filter" button; on a wide screen they are shown', { skip }, async () => {
    const phone = await open('/', { width: 375 });
    try {
      const rating = phone.page.locator('select[name=rating]');
      assert.ok(!(await rating.isVisible()));
      for (const name of ['since', 'until', 'query', 'technician', 'service']) assert.ok(!(await phone.page.locator(`[name=${name}]`).isVisible()), name);
      assert.ok(await phone.page.locator('select[name=sort]').isVisible());
      await phone.page.getByText('Filter', { exact: true }).click();
      assert.ok(await rating.isVisible());
      await rating.selectOption('2');
      await phone.page.waitForURL(/\?rating=2$/);
      await settled(phone.page);
      // A filtered view opens with the fields shown and says how many are set.
      await phone.page.reload({ waitUntil: 'networkidle' });
      assert.ok(await rating.isVisible());
      assert.match((await phone.page.locator('details.more-filters > summary').textContent())!, /Filter \(1 set\)/);
    } finally {
      await phone.context.close();
    }
    const wide = await open('/', { width: 1280 });
    try {
      for (const name of ['rating', 'since', 'until', 'query', 'technician', 'service', 'with_text', 'with_reply']) assert.ok(await wide.page.locator(`[name=${name}]`).isVisible(), name);
      assert.ok(!(await wide.page.locator('details.more-filters > summary').isVisible()));
      // The fields of the row do not overlap one another or stick out of the card.
      const boxes = await wide.page.locator('form.filters label').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.top, r.right, r.bottom]));
      const card = await wide.page.locator('#reviews').evaluate((e) => e.getBoundingClientRect().right);
      for (const [i, a] of boxes.entries()) {
        assert.ok(a[2]! <= card, `field ${i} sticks out of the card`);
        for (const b of boxes.slice(i + 1)) assert.ok(a[2]! <= b[0]! || b[2]! <= a[0]! || a[3]! <= b[1]! || b[3]! <= a[1]!, `fields overlap: ${JSON.stringify([a, b])}`);
      }
    } finally {
      await wide.context.close();
    }
  });

  it('aspects show their mention counts and the positive and negative shares, one decimal; nothing is clipped on a phone', { skip }, async () => {
    const insights = (await (await fetch(`${svc.url}/insights.json`)).json()) as { aspects: { label: string; mention_count: number; positive_count: number; negative_count: number }[] };
    const w = await open('/', { width: 375 });
    try {
      const rows = await w.page.locator('ul.aspects > li').evaluateAll((els) => els.map((e) => e.textContent));
      const mentioned = insights.aspects.filter((x) => x.mention_count > 0);
      assert.equal(rows.length, mentioned.length);
      for (const x of mentioned) {
        const one = (n: number) => `${((n / x.mention_count) * 100).toFixed(1)}%`;
        assert.ok(rows.includes(`${x.label}${x.mention_count} mentions${one(x.positive_count)} positive · ${one(x.negative_count)} negative`), `${x.label}: ${JSON.stringify(rows)}`);
      }
      const clipped = await w.page.locator('ul.aspects .aspect-name, table.entities th, table.entities td').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      assert.deepEqual(clipped, []);
      // Every column of the technicians table is on screen, and header words are not broken.
      const region = (await w.page.getByRole('region', { name: 'Technicians table' }).boundingBox())!;
      for (const th of await w.page.locator('table.entities').first().locator('thead th').all()) {
        const box = (await th.boundingBox())!;
        assert.ok(box.x + box.width <= region.x + region.width + 1, `${await th.textContent()} is off screen`);
      }
      const headerLines = await w.page.locator('table.entities thead th').evaluateAll((els) => els
          .filter((e) => {
            const words = document.createRange();
            words.selectNodeContents(e);
            return !/\s/.test(e.textContent!.trim()) && words.getClientRects().length > 1;
          })
          .map((e) => e.textContent));
      assert.deepEqual(headerLines, [], 'one-word headers broken over lines');
      assert.match((await w.page.locator('table.entities').first().locator('tbody td').nth(2).textContent())!, /^\d+\.\d%$/);
    } finally {
      await w.context.close();
    }
  });
});
