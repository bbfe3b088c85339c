/** The route table of the pages and static assets, rendered once per revision. */
import { sendRepresentation, type Served } from './conditional.js';
import type { Handler, Operation, ServiceContext } from './operation.js';
import { buildRepresentation, type Compression } from '../snapshot/representation.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { ASSET_NAMES, assetRepresentation, assetUrl, favicon, type AssetName } from '../pages/assets.js';
import { renderDevelopersPage, renderMcpPage, renderWebhooksPage } from '../pages/developer-pages.js';
import { renderApiReferencePage, renderInteractiveApiPage, type OpenApiDoc } from '../pages/api-reference.js';
import type { Html } from '../pages/html.js';
import { parsePageQuery, renderReviewPage } from '../pages/review-page.js';
import { renderLlmsTxt, renderRobotsTxt, renderSitemap } from '../pages/text-pages.js';
import { renderReviewMissing, renderReviewPermalink } from '../pages/review-permalink.js';
import { ReviewPathSchema } from '../core/schema/review.js';

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const XML = 'application/xml; charset=utf-8';

/**
 * Pages run no inline script (data blocks like JSON-LD are not executed), so scripts may come
 * from this origin only; inline styles stay allowed for the rating bars and the API reference
 * renderer. No framing, no referrer beyond the origin to other sites.
 */
const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/** Pages are data-dependent, so they are rendered once per revision (and per query) like the JSON bodies. */
function cachedPage(key: string, type: string, render: (snap: Snapshot, ctx: ServiceContext) => Html | string, compression: Compression = 'now') {
  return (ctx: ServiceContext): Served => {
    const snap = ctx.live.current();
    const rep = snap.memo(key, () => buildRepresentation(String(render(snap, ctx)), type, snap.lastModified, compression));
    return { rep, opts: { cacheControl: 'public, max-age=60', headers: PAGE_HEADERS } };
  };
}

/** A year and immutable under the fingerprinted address; the plain one (older pages, bookmarks) is revalidated after five minutes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';

function asset(name: AssetName, cacheControl: string) {
  return (): Served => ({ rep: assetRepresentation(name), opts: { cacheControl } });
}

/**
 * The filter form without JavaScript sends every field, empty or not (`/?sort=newest&rating=&since=...`).
 * Such a URL is sent on to the same view without the empty fields and the default order, so
 * every view has one short address; null when the URL is already tidy.
 */
function tidyQuery(url: string): string | null {
  const at = url.indexOf('?');
  if (at < 0) return null;
  const params = new URLSearchParams(url.slice(at + 1));
  const kept = new URLSearchParams();
  let dropped = false;
  for (const [k, v] of params) {
    if (v.trim() === '' || (k === 'sort' && v === 'newest')) dropped = true;
    else kept.append(k, v);
  }
  if (!dropped) return null;
  const s = kept.toString();
  return s ? `/?${s}` : '/';
}

const page = (path: string, summary: string, answer: { handler: Handler } | { document: (ctx: ServiceContext) => Served }): Operation => ({
  method: 'GET',
  path,
  operationId: `page${path}`,
  tag: 'Pages',
  summary,
  description: summary,
  hidden: true,
  responses: { '200': { description: summary, contentType: HTML } },
  ...answer,
});

/** GET /reviews/{id}: cached per review and revision; a malformed id is 400 and an unknown one 404, both as pages. */
const reviewPermalinkPage: Handler = (req, reply, ctx) => {
  const snap = ctx.live.current();
  const raw = String((req.params as { id?: unknown }).id ?? '');
  // ULIDs are case-insensitive; the page (and its canonical link) uses the upper-case form.
  const parsed = ReviewPathSchema.safeParse({ id: raw.toUpperCase() });
  const review = parsed.success ? snap.index.reviews.find((r) => r.id === parsed.data.id) : undefined;
  if (!review) {
    const status = parsed.success ? 404 : 400;
    return reply.code(status).headers(PAGE_HEADERS).header('content-type', HTML).header('cache-control', 'no-store').send(String(renderReviewMissing(status, raw, snap.business, ctx.baseUrl)));
  }
  const served = cachedPage(`page:/reviews/${review.id}`, HTML, () => renderReviewPermalink(review, snap.business, ctx.baseUrl), 'on-demand')(ctx);
  return sendRepresentation(req, reply, served.rep, served.opts);
};

/** The permalink page is for people and for machines (feeds and API answers link it), so the API description lists it. */
export const reviewPageOperation: Operation = {
  method: 'GET',
  path: '/reviews/{id}',
  operationId: 'getReviewPage',
  tag: 'Reviews',
  summary: 'Permalink page of one review (HTML)',
  description:
    "A server-rendered HTML page for one review: the review, the owner's reply, the link to the original where there is one, and JSON-LD for that one schema.org `Review`. Every feed entry links here, and every review in the JSON API and MCP answers carries this address as `url`. An id that is not a ULID is 400, an unknown one 404; both answers are HTML pages.",
  params: ReviewPathSchema,
  conditional: true,
  responses: {
    '200': { description: 'The review page', contentType: HTML },
    '400': { description: 'The id is not a ULID (an HTML page); a path that is not valid percent-encoding is refused by the router with the JSON error body', contentType: HTML, routerError: true },
    '404': { description: 'No review has this id', contentType: HTML },
  },
  handler: reviewPermalinkPage,
};

/**
 * The API reference pages, drawn from the OpenAPI document; the route table passes the function
 * that builds it (this module is part of that table, so it cannot import it).
 */
export function apiReferenceOperations(openapi: (baseUrl: string) => OpenApiDoc): Operation[] {
  return [
    page('/developers/api', 'API reference', { document: cachedPage('page:/developers/api', HTML, (snap, ctx) => renderApiReferencePage(snap, ctx.baseUrl, openapi(ctx.baseUrl))) }),
    page('/developers/api/interactive', 'Interactive API reference (Scalar)', { document: cachedPage('page:/developers/api/interactive', HTML, (snap, ctx) => renderInteractiveApiPage({ baseUrl: ctx.baseUrl, business: snap.business })) }),
  ];
}

export const pageOperations: Operation[] = [
  page('/', 'The review page', {
    handler: (req, reply, ctx) => {
      const tidy = tidyQuery(req.url);
      if (tidy !== null) return reply.redirect(tidy, 302);
      const q = parsePageQuery(req.query as Record<string, unknown>);
      const served = cachedPage(`page:/?${JSON.stringify([q.filters, q.page])}`, HTML, (snap) => renderReviewPage(snap, ctx.baseUrl, q), 'on-demand')(ctx);
      return sendRepresentation(req, reply, served.rep, served.opts);
    },
  }),
  page('/developers', 'Developer overview', { document: cachedPage('page:/developers', HTML, (snap, ctx) => renderDevelopersPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/developers/mcp', 'MCP setup', { document: cachedPage('page:/developers/mcp', HTML, (snap, ctx) => renderMcpPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/developers/webhooks', 'WebSub guide', { document: cachedPage('page:/developers/webhooks', HTML, (snap, ctx) => renderWebhooksPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/llms.txt', 'Guide for language models', { document: cachedPage('page:/llms.txt', TEXT, (snap, ctx) => renderLlmsTxt(snap, ctx.baseUrl)) }),
  page('/robots.txt', 'Robots rules', { document: cachedPage('page:/robots.txt', TEXT, (_snap, ctx) => renderRobotsTxt(ctx.baseUrl)) }),
  page('/sitemap.xml', 'Sitemap', { document: cachedPage('page:/sitemap.xml', XML, (snap, ctx) => renderSitemap(snap, ctx.baseUrl)) }),
  page('/favicon.ico', 'Icon', { document: () => ({ rep: favicon(), opts: { cacheControl: 'public, max-age=3600' } }) }),
  // Each stylesheet and script under its fingerprinted address (what the pages link) and its plain one.
  ...ASSET_NAMES.flatMap((name) => [
    page(assetUrl(name), `Asset ${name}`, { document: asset(name, IMMUTABLE) }),
    page(`/assets/${name}`, `Asset ${name}`, { document: asset(name, SHORT) }),
  ]),
];
