/** The route table of the pages and static assets, rendered once per revision. */
import { payloadOf, sendRepresentation, type Served } from './conditional.js';
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
import { WidgetOptionsSchema } from '../core/schema/widget.js';
import { renderEmbedError, renderEmbedPage, renderWidgetBuilderPage } from '../pages/widget.js';
import { validateParams } from './validation.js';

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const XML = 'application/xml; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

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
    const build = () => buildRepresentation(String(render(snap, ctx)), type, snap.lastModified, compression);
    // A page per query or per review is an answer, kept within the answers' budget; the rest are documents.
    const rep = compression === 'now' ? snap.memo(key, build) : snap.memoAnswer(key, build);
    return { rep, opts: { cacheControl: 'public, max-age=60', headers: PAGE_HEADERS } };
  };
}

/**
 * /embed is the one page other sites may frame (frame-ancestors from EMBED_FRAME_ANCESTORS,
 * default any); otherwise as strict as the pages: scripts, styles and data from this origin only.
 */
function embedHeaders(frameAncestors: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors ${frameAncestors}`,
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

/** GET /embed: the query is validated by the widget's own schema; a refused option is a 400 page naming it. */
const embedPage: Handler = (req, reply, ctx) => {
  const headers = embedHeaders(ctx.http.embedFrameAncestors);
  const v = validateParams(WidgetOptionsSchema, req.query as Record<string, unknown>);
  if (!v.ok) return reply.code(400).headers(headers).header('content-type', HTML).header('cache-control', 'no-store').send(String(renderEmbedError(v.issues)));
  const snap = ctx.live.current();
  const rep = snap.memo(`page:/embed?${JSON.stringify(v.value)}`, () => buildRepresentation(String(renderEmbedPage(v.value, snap.business)), HTML, snap.lastModified, 'on-demand'));
  return sendRepresentation(req, reply, rep, { cacheControl: 'public, max-age=60', headers });
};

/** The iframe fallback of the review widget, in the API description because other sites link to it. */
export const embedPageOperation: Operation = {
  method: 'GET',
  path: '/embed',
  operationId: 'getEmbedPage',
  tag: 'Widget',
  summary: 'The review widget as a page to frame (HTML)',
  description:
    "The review widget alone in an HTML page, for site builders that take an iframe but strip scripts. Its query parameters are the attributes of `<reviewcast-reviews>`, validated by the same schema; a flag given bare (`&with-text`) is true, as a bare attribute is. The page may be framed by the origins in EMBED_FRAME_ANCESTORS (CSP frame-ancestors; default any); every other page refuses framing. It posts `{ \"type\": \"reviewcast:resize\", \"height\": <px> }` to its parent whenever its height changes. An invalid option is a 400 page naming each problem.",
  query: WidgetOptionsSchema,
  conditional: true,
  responses: {
    '200': { description: 'The widget page', contentType: HTML },
    '400': { description: 'An option is invalid (an HTML page naming each problem)', contentType: HTML },
  },
  handler: embedPage,
};

/** GET /widget.js: the web component other sites load; cached for an hour and open to every origin (CORS), as a module script must be. */
export const widgetScriptOperation: Operation = {
  method: 'GET',
  path: '/widget.js',
  operationId: 'getWidgetScript',
  tag: 'Widget',
  summary: 'The review widget <reviewcast-reviews> (JavaScript module)',
  description:
    'A web component with no dependencies: load it as a module script (type="module", src {BASE_URL}/widget.js) and place a reviewcast-reviews element where the reviews should appear. It contacts only the origin it was loaded from (GET /embed.json). Attributes: layout, min-rating, source, technician, service, limit, with-text, sort, lang, theme, live (see /developers/widget).',
  conditional: true,
  responses: { '200': { description: 'The module', contentType: JS } },
  document: asset('widget.js', 'public, max-age=3600'),
};

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
  const review = parsed.success ? snap.review(parsed.data.id) : undefined;
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
      const snap = ctx.live.current();
      // The errors too: "?page=x" and "?page=01" are page 1, like "/", but are told what was left out.
      const rep = snap.memoAnswer(`page:/?${JSON.stringify([q.filters, q.page, q.errors])}`, () => {
        const page = renderReviewPage(snap, ctx.baseUrl, q);
        return Object.assign(buildRepresentation(String(page.html), HTML, snap.lastModified, 'on-demand'), { status: page.status });
      });
      // A page number past the last names no page: 404 with a link to the last (why not a redirect: renderPastLastPage).
      if (rep.status === 404) return reply.code(404).headers(PAGE_HEADERS).header('content-type', HTML).header('cache-control', 'no-store').send(payloadOf(rep.body));
      return sendRepresentation(req, reply, rep, { cacheControl: 'public, max-age=60', headers: PAGE_HEADERS });
    },
  }),
  page('/developers', 'Developer overview', { document: cachedPage('page:/developers', HTML, (snap, ctx) => renderDevelopersPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http, answerKbPerMinute: ctx.cost.rateLimitCostKb })) }),
  page('/developers/mcp', 'MCP setup', { document: cachedPage('page:/developers/mcp', HTML, (snap, ctx) => renderMcpPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http, answerKbPerMinute: ctx.cost.rateLimitCostKb })) }),
  page('/developers/widget', 'Review widget builder', { document: cachedPage('page:/developers/widget', HTML, (snap, ctx) => renderWidgetBuilderPage(snap, ctx.baseUrl)) }),
  page('/developers/webhooks', 'WebSub guide', { document: cachedPage('page:/developers/webhooks', HTML, (snap, ctx) => renderWebhooksPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http, answerKbPerMinute: ctx.cost.rateLimitCostKb })) }),
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
