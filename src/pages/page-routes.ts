import { sendRepresentation, type Served } from '../http/conditional.js';
import type { Handler, Operation, ServiceContext } from '../http/route-table.js';
import { buildRepresentation, type Compression, type Representation } from '../live/representation.js';
import type { Snapshot } from '../live/snapshot.js';
import { staticAssets, type StaticAssets } from './assets.js';
import { renderApiReferencePage, renderDevelopersPage, renderMcpPage, renderWebhooksPage } from './developer-pages.js';
import type { Html } from './html.js';
import { parsePageQuery, renderReviewPage } from './review-page.js';
import { renderLlmsTxt, renderRobotsTxt } from './text-pages.js';

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

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

function asset(pick: (a: StaticAssets) => Representation) {
  return (): Served => ({ rep: pick(staticAssets()), opts: { cacheControl: 'public, max-age=3600' } });
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

export const pageOperations: Operation[] = [
  page('/', 'The review page', {
    handler: (req, reply, ctx) => {
      const q = parsePageQuery(req.query as Record<string, unknown>);
      const served = cachedPage(`page:/?${JSON.stringify([q.filters, q.page])}`, HTML, (snap) => renderReviewPage(snap, ctx.baseUrl, q), 'on-demand')(ctx);
      return sendRepresentation(req, reply, served.rep, served.opts);
    },
  }),
  page('/developers', 'Developer overview', { document: cachedPage('page:/developers', HTML, (snap, ctx) => renderDevelopersPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/developers/api', 'API reference', { document: cachedPage('page:/developers/api', HTML, (snap, ctx) => renderApiReferencePage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/developers/mcp', 'MCP setup', { document: cachedPage('page:/developers/mcp', HTML, (snap, ctx) => renderMcpPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/developers/webhooks', 'WebSub guide', { document: cachedPage('page:/developers/webhooks', HTML, (snap, ctx) => renderWebhooksPage({ baseUrl: ctx.baseUrl, business: snap.business, limits: ctx.http })) }),
  page('/llms.txt', 'Guide for language models', { document: cachedPage('page:/llms.txt', TEXT, (snap, ctx) => renderLlmsTxt(snap, ctx.baseUrl)) }),
  page('/robots.txt', 'Robots rules', { document: cachedPage('page:/robots.txt', TEXT, (_snap, ctx) => renderRobotsTxt(ctx.baseUrl)) }),
  page('/favicon.ico', 'Icon', { document: asset((a) => a.favicon) }),
  page('/assets/site.css', 'Stylesheet', { document: asset((a) => a.css) }),
  page('/assets/reviews.js', 'Review list script', { document: asset((a) => a.reviewsJs) }),
  page('/assets/scalar.js', 'API reference renderer (@scalar/api-reference)', { document: asset((a) => a.scalarJs) }),
  page('/assets/api-reference.js', 'Starts the API reference renderer', { document: asset((a) => a.apiReferenceJs) }),
];
