/** The review page: filters, pages of reviews and structured data. */
import { stars } from '../core/feeds/websub-topics.js';
import { formatCount, ratingSentence, verifiedCount } from '../core/reviews.js';
import { searchReviews } from '../core/search.js';
import type { Business } from '../core/schema/business.js';
import { fromQueryString } from '../core/schema/query-string.js';
import { SearchQuerySchema, type SearchRequest } from '../core/schema/search.js';
import type { Review } from '../core/schema/review.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { html, jsonScript, type Html } from './html.js';
import { assetUrl } from './assets.js';
import { layout } from './layout.js';

export const PAGE_SIZE = 20;
const MAX_PAGE_SCAN = 100_000;

/** The page's own filter names (friendlier in a URL) and the search parameter each becomes. */
const FILTERS = {
  rating: 'rating',
  since: 'since',
  until: 'until',
  query: 'query',
  technician: 'mentions_technician',
  service: 'mentions_service',
  with_text: 'with_text',
  with_reply: 'with_reply',
  sort: 'sort',
} as const;

/** What a customer sees each filter called, and what to put in it when it cannot be used; public/reviews.js says the same. */
const FILTER_HELP: Record<keyof typeof FILTERS | 'page', [string, string]> = {
  rating: ['Stars', 'choose 1 to 5 stars'],
  since: ['From', 'enter a date such as 2026-03-05'],
  until: ['To', 'enter a date such as 2026-03-05, not before From'],
  query: ['Text', 'enter up to 200 characters'],
  technician: ['Technician', 'choose a name from the list'],
  service: ['Service', 'choose a service from the list'],
  with_text: ['With text only', 'tick or clear the box'],
  with_reply: ['With owner reply', 'tick or clear the box'],
  sort: ['Sort', 'choose an order from the list'],
  page: ['Page', 'a page number from 1'],
};

/** How the status line names each order; public/reviews.js words it the same. */
const SORT_WORDS = { newest: 'newest first', oldest: 'oldest first', highest: 'highest rated first', lowest: 'lowest rated first' } as const;

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** A date as people read it ("Mar 5, 2026"); the ISO date stays in the <time> element. public/reviews.js formats the same way. */
function readableDate(iso: string): string {
  return DATE.format(new Date(`${iso}T00:00:00Z`));
}

export interface PageQuery {
  filters: Partial<Record<keyof typeof FILTERS, string>>;
  search: SearchRequest;
  page: number;
  errors: string[];
}

/** Reads the page's query string; anything invalid is reported on the page and left out of the search. */
export function parsePageQuery(raw: Record<string, unknown>): PageQuery {
  const filters: PageQuery['filters'] = {};
  const searchInput: Record<string, string> = {};
  const errors: string[] = [];
  const reject = (name: keyof typeof FILTER_HELP) => {
    const [label, hint] = FILTER_HELP[name];
    if (!errors.some((e) => e.startsWith(`${label} (`))) errors.push(`${label} (${hint})`);
  };
  for (const [name, param] of Object.entries(FILTERS) as [keyof typeof FILTERS, string][]) {
    const v = raw[name];
    if (typeof v === 'string' && v.trim() !== '') {
      filters[name] = v.trim();
      searchInput[param] = v.trim();
    }
  }
  let search = SearchQuerySchema.safeParse(fromQueryString(SearchQuerySchema, { ...searchInput, limit: 100 }));
  if (!search.success) {
    for (const i of search.error.issues) {
      const param = String(i.path[0]);
      const name = (Object.keys(FILTERS) as (keyof typeof FILTERS)[]).find((k) => FILTERS[k] === param);
      if (name) reject(name);
      delete searchInput[param];
    }
    search = SearchQuerySchema.safeParse(fromQueryString(SearchQuerySchema, { ...searchInput, limit: 100 }));
  }
  const pageRaw = typeof raw.page === 'string' ? raw.page : '1';
  const page = /^\d{1,6}$/.test(pageRaw) && Number(pageRaw) >= 1 ? Number(pageRaw) : 1;
  if (pageRaw !== String(page)) reject('page');
  return { filters, search: search.success ? search.data : { limit: 100 }, page, errors };
}

/** How many pages of PAGE_SIZE the matching reviews fill: at least one, which says when none match. */
function pageCount(matched: number): number {
  return Math.max(1, Math.ceil(matched / PAGE_SIZE));
}

/** The address of a page of the list with these filters: page 1 is the address without `page`. */
function pageLink(filters: PageQuery['filters'], p: number): string {
  const params = new URLSearchParams(filters as Record<string, string>);
  if (p > 1) params.set('page', String(p));
  const s = params.toString();
  return s ? `/?${s}` : '/';
}

/**
 * The answer for a page number past the last (404): a link to the last page and to the first.
 * Not a redirect: the address names a page that does not exist, and a crawler should drop it
 * rather than file the last page under it.
 */
function renderPastLastPage(snap: Snapshot, baseUrl: string, q: PageQuery, last: number): Html {
  const b = snap.business;
  const filtered = Object.keys(q.filters).some((k) => k !== 'sort');
  const what = filtered ? 'reviews matching these filters' : `reviews of ${b.name}`;
  const body = html`<h1>No page ${q.page}</h1>
<p>There ${last === 1 ? html`is only one page` : html`are only ${formatCount(last)} pages`} of ${what}.</p>
<p>${last === 1 ? html`<a href="${pageLink(q.filters, 1)}">Go to page 1</a>` : html`<a href="${pageLink(q.filters, last)}">Go to page ${formatCount(last)}, the last</a>, or <a href="${pageLink(q.filters, 1)}">to the first page</a>`}.</p>`;
  return layout({ title: `No page ${q.page}: ${b.name}`, description: `There is no page ${q.page} of ${what}.`, baseUrl, path: '/', canonical: null, noindex: true, business: b }, body);
}

/**
 * One review, in the list and on its permalink page; the date links to the permalink.
 * public/reviews.js builds the same elements with the same words (a page test compares the
 * two), so a list looks the same whether the server or the script drew it.
 */
export function reviewCard(r: Review, business: Business, query?: string): Html {
  return html`<li><article class="review card" tabindex="-1" aria-label="Review by ${r.author}"><header><span class="who">${r.author}</span><span class="stars" role="img" aria-label="${r.rating} out of 5 stars">${stars(r.rating)}</span><a href="/reviews/${r.id}" title="Permalink"><time datetime="${r.date}">${readableDate(r.date)}</time></a>${r.verified ? html`<span class="badge verified">Verified</span>` : ''}${r.source_url ? html`<a href="${r.source_url}" rel="nofollow noopener">on ${sourceName(r.source)}</a>` : html`<span class="muted">on ${sourceName(r.source)}</span>`}</header>${r.text ? html`<p>${highlight(r.text, query)}</p>` : html`<p class="muted">Rating only, no written review.</p>`}${r.owner_reply ? html`<div class="reply"><strong>Reply from ${business.name}</strong> <time datetime="${r.owner_reply.date}">${readableDate(r.owner_reply.date)}</time><p>${r.owner_reply.text}</p></div>` : ''}</article></li>`;
}

/** The text with each case-insensitive occurrence of the searched text marked; public/reviews.js marks the same. */
function highlight(text: string, query: string | undefined): Html | string {
  if (!query) return text;
  const parts = text.split(new RegExp(`(${query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'giu'));
  return html`${parts.map((part, i) => (i % 2 ? html`<mark>${part}</mark>` : part))}`;
}

/** Names as a sentence lists them: "Dwayne", "Dwayne and Lena", "Dwayne, Lena and Tom". */
function listNames(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A percentage as the page writes it: one decimal ("68.0%"), so figures line up and compare. */
function pct(part: number, whole: number): string {
  return `${whole ? ((part / whole) * 100).toFixed(1) : '0.0'}%`;
}

const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const dayShort = (d: string) => d[0]!.toUpperCase() + d.slice(1, 3);

/** Days as a short list with runs joined: "Mon–Fri", "Mon, Wed, Sat–Sun". */
function dayRanges(days: readonly string[]): string {
  const idx = [...new Set(days.map((d) => DAY_NAMES.indexOf(d as (typeof DAY_NAMES)[number])))].filter((i) => i >= 0).sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const i of idx) {
    const last = runs.at(-1);
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  return runs.map(([a, b]) => (a === b ? dayShort(DAY_NAMES[a]!) : `${dayShort(DAY_NAMES[a]!)}–${dayShort(DAY_NAMES[b]!)}`)).join(', ');
}

/** Hours in one line ("Mon–Fri 07:00–19:00 · Sat 08:00–16:00"). */
function hoursLine(b: Business): string {
  return (b.opening_hours ?? []).map((h) => `${dayRanges(h.days)} ${h.opens === '00:00' && h.closes === '00:00' ? 'open all day' : `${h.opens}–${h.closes}`}`).join(' · ');
}

/**
 * The call button and the hours near the top. Whether the business is open now depends on the
 * visitor's moment, and this page is rendered once per data revision, so public/reviews.js
 * works it out from the hours and time zone given here.
 */
function contactBar(b: Business): Html {
  if (!b.telephone && !b.opening_hours?.length) return html``;
  return html`<div class="contact-bar">
${b.telephone ? html`<a class="button call" href="tel:${b.telephone.replace(/[^\d+]/g, '')}">Call ${b.telephone}</a>` : ''}
${b.opening_hours?.length ? html`<p class="hours"><span id="open-now" data-hours="${JSON.stringify(b.opening_hours)}"${b.time_zone ? html` data-time-zone="${b.time_zone}"` : ''}></span><span>${hoursLine(b)}</span></p>` : ''}
</div>`;
}

/** Page numbers to link: the first, the last and two either side of the current one; null where some are left out. */
function pageNumbers(page: number, pages: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) out.push(p);
    else if (out.at(-1) !== null) out.push(null);
  }
  return out;
}

/** The line above the list; public/reviews.js words it the same. */
function statusText(matched: number, filtered: boolean, first: number, last: number, sort: keyof typeof SORT_WORDS): string {
  if (matched === 0) return filtered ? 'No reviews match these filters.' : 'No reviews yet.';
  return `${formatCount(matched)} review${matched === 1 ? '' : 's'}${filtered ? ' match' : ''}; showing ${formatCount(first)} to ${formatCount(last)}, ${SORT_WORDS[sort]}.`;
}

/** The option a filter value selects: a roster name or alias picks its entry; anything else is kept as its own option so the next change does not drop it. */
function technicianOptions(b: Business, value: string | undefined): Html {
  const wanted = value?.toLowerCase();
  const hit = wanted === undefined ? undefined : b.technicians.find((t) => t.name.toLowerCase() === wanted || t.aliases.some((a) => a.toLowerCase() === wanted));
  return html`<option value="">Any</option>${b.technicians.map((t) => html`<option${t === hit ? html` selected` : ''}>${t.name}</option>`)}${value !== undefined && !hit ? html`<option selected>${value}</option>` : ''}`;
}

function serviceOptions(b: Business, value: string | undefined): Html {
  const wanted = value?.toLowerCase();
  const hit = wanted === undefined ? undefined : b.services.find((s) => s.id === wanted || s.label.toLowerCase() === wanted || s.aliases.some((a) => a.toLowerCase() === wanted));
  return html`<option value="">Any</option>${b.services.map((s) => html`<option value="${s.id}"${s === hit ? html` selected` : ''}>${s.label}</option>`)}${value !== undefined && !hit ? html`<option selected>${value}</option>` : ''}`;
}

/** Reviews written on the business's own site; the only ones its markup may claim as its own. */
export const FIRST_PARTY_SOURCE = 'website';

/** Source names as people write them: "on Google", not "on google". */
const SOURCE_NAMES: Record<string, string> = { google: 'Google', yelp: 'Yelp', facebook: 'Facebook', website: 'this website', tripadvisor: 'Tripadvisor', trustpilot: 'Trustpilot', bbb: 'BBB', angi: 'Angi', houzz: 'Houzz', nextdoor: 'Nextdoor' };
export function sourceName(source: string): string {
  return SOURCE_NAMES[source] ?? source.charAt(0).toUpperCase() + source.slice(1);
}

/** Five stars filled to `value` (partial stars, so 3.62 does not look like 4); the number is said in text beside it. */
function starMeter(value: number): Html {
  return html`<span class="star-meter" aria-hidden="true"><span class="star-fill" style="width:${pct(value, 5)}">★★★★★</span>★★★★★</span>`;
}

interface FirstParty {
  ratingValue: number;
  ratingCount: number;
  reviewCount: number;
}

function firstPartyAggregate(reviews: readonly Review[]): FirstParty | null {
  let sum = 0;
  let ratingCount = 0;
  let reviewCount = 0;
  for (const r of reviews) {
    if (r.source !== FIRST_PARTY_SOURCE) continue;
    sum += r.rating;
    ratingCount++;
    if (r.text) reviewCount++;
  }
  return ratingCount === 0 ? null : { ratingValue: Math.round((sum / ratingCount) * 100) / 100, ratingCount, reviewCount };
}

/**
 * schema.org markup of the business. Following Google's review-snippet rules, only reviews
 * written on this site are marked up (never ones taken from Google, Yelp or Facebook), and only
 * those shown on this page; the aggregate counts the same first-party reviews: ratingCount every
 * rating, reviewCount those with text. See docs/pages.md for what this can and cannot earn.
 */
function jsonLd(b: Business, baseUrl: string, firstParty: FirstParty | null, shown: readonly Review[]): unknown {
  const ownShown = shown.filter((r) => r.source === FIRST_PARTY_SOURCE);
  return {
    '@context': 'https://schema.org',
    '@type': b.schema_org_type ?? 'LocalBusiness',
    '@id': `${baseUrl}/#business`,
    name: b.name,
    ...(b.description ? { description: b.description } : {}),
    url: b.url ?? `${baseUrl}/`,
    ...(b.same_as?.length ? { sameAs: b.same_as } : {}),
    ...(b.telephone ? { telephone: b.telephone } : {}),
    ...(b.email ? { email: b.email } : {}),
    ...(b.address
      ? {
          address: {
            '@type': 'PostalAddress',
            streetAddress: b.address.street_address,
            addressLocality: b.address.locality,
            addressRegion: b.address.region,
            postalCode: b.address.postal_code,
            addressCountry: b.address.country,
          },
        }
      : {}),
    ...(b.geo ? { geo: { '@type': 'GeoCoordinates', latitude: b.geo.latitude, longitude: b.geo.longitude } } : {}),
    ...(b.opening_hours
      ? { openingHoursSpecification: b.opening_hours.map((h) => ({ '@type': 'OpeningHoursSpecification', dayOfWeek: h.days.map((d) => d[0]!.toUpperCase() + d.slice(1)), opens: h.opens, closes: h.closes })) }
      : {}),
    ...(b.service_areas.length ? { areaServed: b.service_areas.map((name) => ({ '@type': 'Place', name })) } : {}),
    ...(firstParty
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: firstParty.ratingValue,
            ratingCount: firstParty.ratingCount,
            reviewCount: firstParty.reviewCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    ...(ownShown.length
      ? {
          review: ownShown.map((r) => ({
            '@type': 'Review',
            author: { '@type': 'Person', name: r.author },
            datePublished: r.date,
            ...(r.text ? { reviewBody: r.text } : {}),
            reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
          })),
        }
      : {}),
  };
}

function businessCard(b: Business): Html {
  const addr = b.address ? [b.address.street_address, b.address.locality, b.address.region, b.address.postal_code].filter(Boolean).join(', ') : null;
  return html`<section class="card" aria-labelledby="about-h">
<h2 id="about-h">About</h2>
${b.description ? html`<p>${b.description}</p>` : ''}
<ul>
${b.telephone ? html`<li>Phone: <a href="tel:${b.telephone}">${b.telephone}</a></li>` : ''}
${b.email ? html`<li>Email: <a href="mailto:${b.email}">${b.email}</a></li>` : ''}
${b.url ? html`<li>Website: <a href="${b.url}">${b.url}</a></li>` : ''}
${addr ? html`<li>Address: ${addr}</li>` : ''}
</ul>
${b.opening_hours?.length ? html`<h3>Opening hours</h3><ul>${b.opening_hours.map((h) => html`<li>${dayRanges(h.days)}: ${h.opens} to ${h.closes}</li>`)}</ul>` : ''}
${b.service_areas.length ? html`<h3>Service areas</h3><p>${b.service_areas.join(', ')}</p>` : ''}
</section>`;
}

/** The review page for a query: 200 with its page of reviews, or 404 when the page asked for is past the last. */
export function renderReviewPage(snap: Snapshot, baseUrl: string, q: PageQuery): { status: 200 | 404; html: Html } {
  const all = searchReviews(snap.index, { ...q.search, limit: MAX_PAGE_SCAN });
  const pages = pageCount(all.matched);
  // Decided here, from the one search the page makes, so the 404 is kept with the answers like any page of the query.
  if (q.page > pages) return { status: 404, html: renderPastLastPage(snap, baseUrl, q, pages) };
  return { status: 200, html: reviewListPage(snap, baseUrl, q, all, pages) };
}

function reviewListPage(snap: Snapshot, baseUrl: string, q: PageQuery, all: ReturnType<typeof searchReviews>, pages: number): Html {
  const b = snap.business;
  const a = snap.aggregate;
  const ins = snap.insights();
  // A technician no review names has no rating or share to show: a row of zeros would read as 0% positive.
  const named = ins.entities.technicians.filter((t) => t.mention_count > 0);
  const unnamed = ins.entities.technicians.filter((t) => t.mention_count === 0);
  const page = q.page;
  const shown = all.reviews.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const filtered = Object.keys(q.filters).some((k) => k !== 'sort');
  const sort = q.search.sort ?? 'newest';
  // Any parameter (a filter or another order) makes a view search engines are told to skip.
  const indexable = Object.keys(q.filters).length === 0;
  const link = (p: number) => pageLink(q.filters, p);
  const total = a.review_count || 1;
  const verified = verifiedCount(snap.index.reviews);
  const firstParty = firstPartyAggregate(snap.index.reviews);
  const aspects = ins.aspects.filter((x) => x.mention_count > 0).sort((x, y) => y.mention_count - x.mention_count);
  // Recurring phrases as chips that search for them; the count is what that search finds, so the chip and the list agree,
  // and the chips go in the order of the counts they show (the search finds "burst pipes" for "burst pipe" too).
  const mentions = ins.topics
    .map((t) => ({ label: t.label, matched: searchReviews(snap.index, { query: t.label, limit: 1 }).matched }))
    .filter((m) => m.matched > 0)
    .sort((x, y) => y.matched - x.matched)
    .slice(0, 8);
  const moreSet = (['rating', 'since', 'until', 'query', 'technician', 'service', 'with_text', 'with_reply'] as const).filter((k) => q.filters[k] !== undefined).length;

  const body = html`
<h1>${b.name}</h1>
<p class="muted">${ratingSentence(a, verified)}</p>
${contactBar(b)}
<section class="card rating-card" aria-labelledby="rating-h">
<h2 id="rating-h">Rating</h2>
<p class="rating-line"><span class="rating-big">${a.rating_value ?? '–'}</span> ${starMeter(a.rating_value ?? 0)} <span>${a.rating_value === null ? 'No ratings yet' : `out of 5, from ${formatCount(a.review_count)} review${a.review_count === 1 ? '' : 's'}`}</span></p>
<ul class="bars" aria-label="Reviews by star rating: choose one to show only those">
${[5, 4, 3, 2, 1].map((s) => {
  const n = a.distribution[String(s) as '1'];
  return html`<li><a href="/?rating=${s}#reviews" data-rating="${s}"${q.filters.rating === String(s) ? html` aria-current="true"` : ''}>${s} star${s === 1 ? '' : 's'}</a><span class="bar" aria-hidden="true"><span style="width:${pct(n, total)}"></span></span><span class="num">${formatCount(n)}</span></li>`;
})}
</ul>
<p class="muted">${formatCount(verified)} of ${formatCount(a.review_count)} come from a verified source.${firstParty ? ` Left on this website: ${firstParty.ratingValue} out of 5 from ${formatCount(firstParty.ratingCount)} rating${firstParty.ratingCount === 1 ? '' : 's'}, ${formatCount(firstParty.reviewCount)} with a written review.` : ''}</p>
${mentions.length ? html`<h3 id="mentions-h">What people mention</h3>
<ul class="chips" aria-labelledby="mentions-h">${mentions.map((m) => html`<li><a href="/?query=${encodeURIComponent(m.label)}#reviews" data-query="${m.label}"${q.filters.query?.toLowerCase() === m.label.toLowerCase() ? html` aria-current="true"` : ''}>${m.label} <span class="count">${formatCount(m.matched)}</span></a></li>`)}</ul>` : ''}
</section>
<section class="card" id="reviews" aria-labelledby="reviews-h">
<h2 id="reviews-h">Reviews</h2>
<form class="filters" method="get" action="/" role="search" aria-label="Filter reviews">
<label>Sort<select name="sort">${(Object.keys(SORT_WORDS) as (keyof typeof SORT_WORDS)[]).map((s) => html`<option value="${s}"${sort === s ? html` selected` : ''}>${s === 'newest' ? 'Newest' : s === 'oldest' ? 'Oldest' : s === 'highest' ? 'Highest rated' : 'Lowest rated'}</option>`)}</select></label>
<details class="more-filters"${moreSet ? html` open` : ''}><summary>Filter${moreSet ? html` <span class="count">(${moreSet} set)</span>` : ''}</summary><div class="filter-fields">
<label>Stars<select name="rating"><option value="">Any</option>${[5, 4, 3, 2, 1].map((s) => html`<option value="${s}"${q.filters.rating === String(s) ? html` selected` : ''}>${s} star${s === 1 ? '' : 's'}</option>`)}</select></label>
<label>From<input type="date" name="since" value="${q.filters.since ?? ''}"></label>
<label>To<input type="date" name="until" value="${q.filters.until ?? ''}"></label>
<label>Text<input type="search" name="query" value="${q.filters.query ?? ''}" placeholder="e.g. on time"></label>
<label>Technician<select name="technician">${technicianOptions(b, q.filters.technician)}</select></label>
<label>Service<select name="service">${serviceOptions(b, q.filters.service)}</select></label>
<fieldset class="toggles"><legend class="sr-only">Only reviews</legend>
<label class="check"><input type="checkbox" name="with_text" value="true"${q.filters.with_text === 'true' ? html` checked` : ''}> With text only</label>
<label class="check"><input type="checkbox" name="with_reply" value="true"${q.filters.with_reply === 'true' ? html` checked` : ''}> With owner reply</label>
</fieldset>
</div></details>
<div><button type="submit">Apply filters</button> <a id="clear-filters" href="/"${filtered ? '' : html` hidden`}>Clear filters</a></div>
</form>
<div id="review-errors"${q.errors.length ? '' : html` hidden`}>${q.errors.length ? html`<p class="card error" role="alert">Some filters could not be used and were left out: ${q.errors.join('; ')}. <a href="/">Clear filters</a></p>` : ''}</div>
<div id="review-notices" aria-live="polite"${all.notices?.length ? '' : html` hidden`}>${(all.notices ?? []).map((n) => html`<p class="card notice">${n.message}</p>`)}</div>
<p id="review-status" role="status" aria-live="polite">${statusText(all.matched, filtered, (page - 1) * PAGE_SIZE + 1, (page - 1) * PAGE_SIZE + shown.length, sort)}</p>
<ol class="reviews" id="review-list" data-business="${b.name}">${shown.map((r) => reviewCard(r, b, q.search.query))}</ol>
<nav class="pager" id="pager" aria-label="Pages">
${page > 1 ? html`<a class="button" rel="prev" href="${link(page - 1)}">Previous</a>` : ''}
<ul class="pages">${pageNumbers(page, pages).map((p) => (p === null ? html`<li aria-hidden="true">…</li>` : p === page ? html`<li><a href="${link(p)}" aria-current="page" aria-label="Page ${p} of ${pages}">${p}</a></li>` : html`<li><a href="${link(p)}" aria-label="Page ${p}">${p}</a></li>`))}</ul>
${page < pages ? html`<a class="button" rel="next" href="${link(page + 1)}">Next</a>` : ''}
</nav>
</section>
${ins.summary ? html`<section class="card" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2><p>${ins.summary}</p>
${ins.pull_quote ? html`<figure><blockquote>${ins.pull_quote.text}</blockquote><figcaption class="muted">${ins.pull_quote.author}, ${ins.pull_quote.rating} stars, <time datetime="${ins.pull_quote.date}">${readableDate(ins.pull_quote.date)}</time></figcaption></figure>` : ''}</section>` : ''}
${aspects.length ? html`<section class="card" aria-labelledby="aspects-h"><h2 id="aspects-h">What customers say</h2>
<p class="muted">How the reviews that mention each aspect judge it, found in the review text by a local analysis (<a href="/insights.json">insights.json</a>); the rest are neutral.</p>
<ul class="aspects">${aspects.map((x) => html`<li><span class="aspect-name">${x.label}</span><span class="aspect-count">${formatCount(x.mention_count)} mention${x.mention_count === 1 ? '' : 's'}</span><span class="bar split" aria-hidden="true"><span class="pos-part" style="width:${pct(x.positive_count, x.mention_count)}"></span><span class="neg-part" style="width:${pct(x.negative_count, x.mention_count)}"></span></span><span class="aspect-pcts"><span class="pos">${pct(x.positive_count, x.mention_count)} positive</span> · <span class="neg">${pct(x.negative_count, x.mention_count)} negative</span></span></li>`)}</ul>
</section>` : ''}
<div class="grid">
${ins.entities.technicians.length && !b.hide_technician_table ? html`<section class="card" aria-labelledby="tech-h"><h2 id="tech-h">Technicians</h2>${named.length ? html`<div class="table-scroll" tabindex="0" role="region" aria-label="Technicians table"><table class="entities">
<thead><tr><th scope="col">Name</th><th scope="col" class="num">Reviews</th><th scope="col" class="num">Avg. rating</th><th scope="col" class="num">Positive</th></tr></thead>
<tbody>${named.map((t) => html`<tr><th scope="row"><a href="/?technician=${encodeURIComponent(t.name)}">${t.name}</a></th><td class="num">${formatCount(t.mention_count)}</td><td class="num">${t.average_rating ?? '–'}</td><td class="num">${pct(t.sentiment.positive, t.mention_count)}</td></tr>`)}</tbody>
</table></div>` : ''}${unnamed.length ? html`<p class="muted">No reviews yet for ${listNames(unnamed.map((t) => t.name))}.</p>` : ''}</section>` : ''}
${ins.entities.services.length ? html`<section class="card" aria-labelledby="svc-h"><h2 id="svc-h">Services</h2><div class="table-scroll" tabindex="0" role="region" aria-label="Services table"><table class="entities">
<thead><tr><th scope="col">Service</th><th scope="col" class="num">Reviews</th><th scope="col" class="num">Avg. rating</th></tr></thead>
<tbody>${ins.entities.services.map((s) => html`<tr><th scope="row"><a href="/?service=${encodeURIComponent(s.id)}">${s.label}</a></th><td class="num">${formatCount(s.mention_count)}</td><td class="num">${s.average_rating ?? '–'}</td></tr>`)}</tbody>
</table></div></section>` : ''}
</div>
<div class="grid">
${businessCard(b)}
</div>
<script src="${assetUrl('reviews.js')}" defer></script>`;

  return layout(
    {
      title: `${b.name}: customer reviews${page > 1 ? `, page ${page}` : ''}`,
      description: `${ratingSentence(a, verified)}${ins.summary ? ` ${ins.summary}` : ''}`,
      baseUrl,
      path: '/',
      // Each page of the unfiltered list is its own canonical page; filtered views are not indexed.
      canonical: indexable ? `${baseUrl}${link(page)}` : null,
      noindex: !indexable,
      business: b,
      head: !indexable ? undefined : html`<script type="application/ld+json">${jsonScript(jsonLd(b, baseUrl, firstParty, shown))}</script>`,
    },
    body,
  );
}
