import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendRepresentation } from '../http/conditional.js';
import type { Operation, ServiceContext } from '../http/route-table.js';
import { buildRepresentation, type Representation } from '../live/representation.js';
import type { Snapshot } from '../live/snapshot.js';
import { staticAssets, type StaticAssets } from './assets.js';
import { renderApiReferencePage, renderDevelopersPage, renderMcpPage, renderWebhooksPage } from './developer-pages.js';
import type { Html } from './html.js';
import { parsePageQuery, renderReviewPage } from './review-page.js';
import { renderLlmsTxt, renderRobotsTxt } from './text-pages.js';

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

/** Pages are data-dependent, so they are rendered once per revision (and per query) like the JSON bodies. */
function cachedPage(key: string, type: string, render: (snap: Snapshot, ctx: ServiceContext) => Html | string) {
  return (req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext): FastifyReply => {
    const snap = ctx.live.current();
    const rep = snap.memo(key, () => buildRepresentation(String(render(snap, ctx)), type, snap.lastModified));
    return sendRepresentation(req, reply, rep, { cacheControl: 'public, max-age=60' });
  };
}

function asset(pick: (a: StaticAssets) => Representation) {
  return (req: FastifyRequest, reply: FastifyReply): FastifyReply => sendRepresentation(req, reply, pick(staticAssets()), { cacheControl: 'public, max-age=3600' });
}

const page = (path: string, summary: string, handler: Operation['handler']): Operation => ({
  method: 'GET',
  path,
  operationId: `page${path}`,
  tag: 'Pages',
  summary,
  description: summary,
  hidden: true,
  responses: { '200': { description: summary, contentType: HTML } },
  handler,
});

export const pageOperations: Operation[] = [
  page('/', 'The review page', (req, reply, ctx) => {
    const q = parsePageQuery(req.query as Record<string, unknown>);
    const key = `page:/?${JSON.stringify([q.filters, q.page])}`;
    return cachedPage(key, HTML, (snap) => renderReviewPage(snap, ctx.baseUrl, q))(req, reply, ctx);
  }),
  page('/developers', 'Developer overview', cachedPage('page:/developers', HTML, (snap, ctx) => renderDevelopersPage({ baseUrl: ctx.baseUrl, business: snap.business }))),
  page('/developers/api', 'API reference', cachedPage('page:/developers/api', HTML, (snap, ctx) => renderApiReferencePage({ baseUrl: ctx.baseUrl, business: snap.business }))),
  page('/developers/mcp', 'MCP setup', cachedPage('page:/developers/mcp', HTML, (snap, ctx) => renderMcpPage({ baseUrl: ctx.baseUrl, business: snap.business }))),
  page('/developers/webhooks', 'WebSub guide', cachedPage('page:/developers/webhooks', HTML, (snap, ctx) => renderWebhooksPage({ baseUrl: ctx.baseUrl, business: snap.business }))),
  page('/llms.txt', 'Guide for language models', cachedPage('page:/llms.txt', TEXT, (snap, ctx) => renderLlmsTxt(snap, ctx.baseUrl))),
  page('/robots.txt', 'Robots rules', cachedPage('page:/robots.txt', TEXT, (_snap, ctx) => renderRobotsTxt(ctx.baseUrl))),
  page('/favicon.ico', 'Icon', asset((a) => a.favicon)),
  page('/assets/site.css', 'Stylesheet', asset((a) => a.css)),
  page('/assets/reviews.js', 'Review list script', asset((a) => a.reviewsJs)),
  page('/assets/scalar.js', 'API reference renderer (@scalar/api-reference)', asset((a) => a.scalarJs)),
];
