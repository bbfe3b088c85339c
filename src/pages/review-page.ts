import { stars } from '../core/feeds/topics.js';
import { searchReviews } from '../core/search.js';
import type { Business } from '../core/schema/business.js';
import { SearchQuerySchema, type SearchQuery } from '../core/schema/search.js';
import type { Review } from '../core/schema/review.js';
import type { Snapshot } from '../live/snapshot.js';
import { html, jsonScript, type Html } from './html.js';
import { layout } from './layout.js';

export const PAGE_SIZE = 20;
const MAX_PAGE_SCAN = 100_000;

/** The page's own filter names (friendlier in a URL) and the search parameter each becomes. */
const FILTERS = { rating: 'rating', since: 'since', until: 'until', query: 'query', technician: 'mentions_technician', service: 'mentions_service' } as const;

export interface PageQuery {
  filters: Partial<Record<keyof typeof FILTERS, string>>;
  search: SearchQuery;
  page: number;
  errors: string[];
}

/** Reads the page's query string; anything invalid is reported on the page and left out of the search. */
export function parsePageQuery(raw: Record<string, unknown>): PageQuery {
  const filters: PageQuery['filters'] = {};
  const searchInput: Record<string, string> = {};
  const errors: string[] = [];
  for (const [name, param] of Object.entries(FILTERS) as [keyof typeof FILTERS, string][]) {
    const v = raw[name];
    if (typeof v === 'string' && v.trim() !== '') {
      filters[name] = v.trim();
      searchInput[param] = v.trim();
    }
  }
  let search = SearchQuerySchema.safeParse({ ...searchInput, limit: '100' });
  if (!search.success) {
    for (const i of search.error.issues) {
      const param = String(i.path[0]);
      const name = (Object.keys(FILTERS) as (keyof typeof FILTERS)[]).find((k) => FILTERS[k] === param) ?? param;
      errors.push(`${name}: ${i.message}`);
      delete searchInput[param];
    }
    search = SearchQuerySchema.safeParse({ ...searchInput, limit: '100' });
  }
  const pageRaw = typeof raw.page === 'string' ? raw.page : '1';
  const page = /^\d{1,6}$/.test(pageRaw) && Number(pageRaw) >= 1 ? Number(pageRaw) : 1;
  if (pageRaw !== String(page)) errors.push('page: must be a whole number from 1');
  return { filters, search: search.success ? search.data : { limit: 100 }, page, errors };
}

function reviewCard(r: Review, business: Business): Html {
  return html`<li><article class="review card" aria-label="Review by ${r.author}">
<header><span class="who">${r.author}</span><span class="stars" role="img" aria-label="${r.rating} out of 5 stars">${stars(r.rating)}</span><time datetime="${r.date}">${r.date}</time>${r.verified ? html`<span class="badge verified">Verified</span>` : ''}${r.source_url ? html`<a href="${r.source_url}" rel="nofollow noopener">on ${r.source}</a>` : html`<span class="muted">via ${r.source}</span>`}</header>
${r.text ? html`<p>${r.text}</p>` : html`<p class="muted">Rating only, no written review.</p>`}
${r.owner_reply ? html`<div class="reply"><strong>Reply from ${business.name} </strong><time datetime="${r.owner_reply.date}">${r.owner_reply.date}</time><p>${r.owner_reply.text}</p></div>` : ''}
</article></li>`;
}

function jsonLd(snap: Snapshot, baseUrl: string): unknown {
  const b = snap.business;
  const a = snap.aggregate;
  return {
    '@context': 'https://schema.org',
    '@type': 'HomeAndConstructionBusiness',
    '@id': `${baseUrl}/#business`,
    name: b.name,
    ...(b.description ? { description: b.description } : {}),
    url: b.url ?? `${baseUrl}/`,
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
    ...(a.rating_value !== null
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: a.rating_value, reviewCount: a.review_count, bestRating: a.best_rating, worstRating: a.worst_rating } }
      : {}),
    review: snap.index.reviews
      .filter((r) => r.text)
      .slice(0, 10)
      .map((r) => ({
        '@type': 'Review',
        author: { '@type': 'Person', name: r.author },
        datePublished: r.date,
        reviewBody: r.text,
        reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
      })),
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
${b.opening_hours?.length ? html`<h3>Opening hours</h3><ul>${b.opening_hours.map((h) => html`<li>${h.days.map((d) => d[0]!.toUpperCase() + d.slice(1, 3)).join(', ')}: ${h.opens} to ${h.closes}</li>`)}</ul>` : ''}
${b.service_areas.length ? html`<h3>Service areas</h3><p>${b.service_areas.join(', ')}</p>` : ''}
</section>`;
}

export function renderReviewPage(snap: Snapshot, baseUrl: string, q: PageQuery): Html {
  const b = snap.business;
  const a = snap.aggregate;
  const ins = snap.insights();
  const all = searchReviews(snap.index, { ...q.search, limit: MAX_PAGE_SCAN });
  const pages = Math.max(1, Math.ceil(all.matched / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const shown = all.reviews.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const filtered = Object.keys(q.filters).length > 0;
  const link = (p: number) => {
    const params = new URLSearchParams(q.filters as Record<string, string>);
    if (p > 1) params.set('page', String(p));
    const s = params.toString();
    return s ? `/?${s}` : '/';
  };
  const total = a.review_count || 1;
  const aspects = ins.aspects.filter((x) => x.mention_count > 0).sort((x, y) => y.mention_count - x.mention_count);

  const body = html`
<h1>${b.name}</h1>
<p class="muted">${a.rating_value === null ? 'No reviews yet.' : html`Rated <strong>${a.rating_value}</strong> out of 5 from ${a.review_count} verified reviews.`}</p>
<div class="grid">
<section class="card" aria-labelledby="rating-h">
<h2 id="rating-h">Rating</h2>
<p><span class="rating-big">${a.rating_value ?? '–'}</span> <span class="stars" role="img" aria-label="${a.rating_value ?? 0} out of 5 stars">${stars(Math.round(a.rating_value ?? 0))}</span></p>
<ul class="bars" aria-label="Reviews by star rating">
${[5, 4, 3, 2, 1].map((s) => {
  const n = a.distribution[String(s) as '1'];
  return html`<li><span>${s} star${s === 1 ? '' : 's'}</span><span class="bar" aria-hidden="true"><span style="width:${((n / total) * 100).toFixed(1)}%"></span></span><span class="num">${n}</span></li>`;
})}
</ul>
</section>
${businessCard(b)}
</div>
${ins.summary ? html`<section class="card" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2><p>${ins.summary}</p>
${ins.pull_quote ? html`<figure><blockquote>${ins.pull_quote.text}</blockquote><figcaption class="muted">${ins.pull_quote.author}, ${ins.pull_quote.rating} stars, ${ins.pull_quote.date}</figcaption></figure>` : ''}</section>` : ''}
${aspects.length ? html`<section class="card" aria-labelledby="aspects-h"><h2 id="aspects-h">What customers say</h2>
<p class="muted">Share of positive mentions per aspect, found in the review text by a local analysis (<a href="/insights.json">insights.json</a>).</p>
<ul class="bars">${aspects.map((x) => html`<li><span>${x.label}</span><span class="bar pos" aria-hidden="true"><span style="width:${x.positive_pct}%"></span></span><span class="num">${x.positive_pct}%<span class="sr-only"> positive of ${x.mention_count} mentions</span></span></li>`)}</ul>
</section>` : ''}
<div class="grid">
${ins.entities.technicians.length ? html`<section class="card" aria-labelledby="tech-h"><h2 id="tech-h">Technicians</h2><div class="table-scroll"><table>
<thead><tr><th scope="col">Name</th><th scope="col" class="num">Reviews</th><th scope="col" class="num">Avg. rating</th><th scope="col" class="num">Positive</th></tr></thead>
<tbody>${ins.entities.technicians.map((t) => html`<tr><th scope="row"><a href="/?technician=${encodeURIComponent(t.name)}">${t.name}</a></th><td class="num">${t.mention_count}</td><td class="num">${t.average_rating ?? '–'}</td><td class="num">${t.mention_count ? Math.round((t.sentiment.positive / t.mention_count) * 100) : 0}%</td></tr>`)}</tbody>
</table></div></section>` : ''}
${ins.entities.services.length ? html`<section class="card" aria-labelledby="svc-h"><h2 id="svc-h">Services</h2><div class="table-scroll"><table>
<thead><tr><th scope="col">Service</th><th scope="col" class="num">Reviews</th><th scope="col" class="num">Avg. rating</th></tr></thead>
<tbody>${ins.entities.services.map((s) => html`<tr><th scope="row"><a href="/?service=${encodeURIComponent(s.id)}">${s.label}</a></th><td class="num">${s.mention_count}</td><td class="num">${s.average_rating ?? '–'}</td></tr>`)}</tbody>
</table></div></section>` : ''}
</div>
<section class="card" aria-labelledby="reviews-h">
<h2 id="reviews-h">Reviews</h2>
<form class="filters" method="get" action="/" role="search" aria-label="Filter reviews">
<label>Stars<select name="rating"><option value="">Any</option>${[5, 4, 3, 2, 1].map((s) => html`<option value="${s}"${q.filters.rating === String(s) ? html` selected` : ''}>${s} star${s === 1 ? '' : 's'}</option>`)}</select></label>
<label>From<input type="date" name="since" value="${q.filters.since ?? ''}"></label>
<label>To<input type="date" name="until" value="${q.filters.until ?? ''}"></label>
<label>Text<input type="search" name="query" value="${q.filters.query ?? ''}" placeholder="e.g. on time"></label>
<label>Technician<select name="technician"><option value="">Any</option>${b.technicians.map((t) => html`<option${q.filters.technician === t.name ? html` selected` : ''}>${t.name}</option>`)}</select></label>
<label>Service<select name="service"><option value="">Any</option>${b.services.map((s) => html`<option value="${s.id}"${q.filters.service === s.id ? html` selected` : ''}>${s.label}</option>`)}</select></label>
<div><button type="submit">Apply filters</button>${filtered ? html` <a href="/">Clear</a>` : ''}</div>
</form>
${q.errors.length ? html`<p class="card error" role="alert">Some filters were ignored: ${q.errors.join('; ')}</p>` : ''}
<p id="review-status" role="status" aria-live="polite">${all.matched} review${all.matched === 1 ? '' : 's'}${filtered ? ' match' : ''}; showing ${shown.length ? `${(page - 1) * PAGE_SIZE + 1} to ${(page - 1) * PAGE_SIZE + shown.length}` : 'none'}, newest first.</p>
<ol class="reviews" id="review-list">${shown.map((r) => reviewCard(r, b))}</ol>
<nav class="pager" id="pager" aria-label="Pages">
${page > 1 ? html`<a class="button" rel="prev" href="${link(page - 1)}">Newer</a>` : ''}
<span>Page ${page} of ${pages}</span>
${page < pages ? html`<a class="button" rel="next" href="${link(page + 1)}">Older</a>` : ''}
</nav>
</section>
<script src="/assets/reviews.js" defer></script>`;

  return layout(
    {
      title: `${b.name}: verified customer reviews`,
      description: ins.summary ?? `Verified customer reviews of ${b.name}.`,
      baseUrl,
      path: '/',
      business: b,
      head: html`<script type="application/ld+json">${jsonScript(jsonLd(snap, baseUrl))}</script>`,
    },
    body,
  );
}
