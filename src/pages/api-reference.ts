/** The API reference: a static page drawn from the OpenAPI document, and Scalar's interactive one on a page of its own. */
import type { Business } from '../core/schema/business.js';
import { publishHits, searchReviews } from '../core/search.js';
import { fromQueryString } from '../core/schema/query-string.js';
import { SearchQuerySchema } from '../core/schema/search.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { releaseBuild } from '../snapshot/build-digest.js';
import { VERSION } from '../version.js';
import { Html, html, jsonScript } from './html.js';
import { layout } from './layout.js';
import { breakableName, codeBlock, fieldTable, inlineMarkdown, scrollTable, typeLabel, type JsonSchemaNode } from './schema-docs.js';
import { assetUrl } from './assets.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: JsonSchemaNode;
}
interface Media {
  schema?: JsonSchemaNode;
  example?: unknown;
}
interface Response {
  $ref?: string;
  description?: string;
  content?: Record<string, Media>;
}
interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { description?: string; content: Record<string, Media> };
  responses: Record<string, Response>;
}
/** The parts of the OpenAPI document this page reads. */
export interface OpenApiDoc {
  info: { description: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationDoc>>;
  components: { schemas: Record<string, JsonSchemaNode>; responses: Record<string, Response> };
}

interface Ctx {
  baseUrl: string;
  business: Business;
  openapi: OpenApiDoc;
  /** Examples from the data this service holds, by operationId; they replace the document's made-up ones. */
  examples: Record<string, { curl: string; body: unknown }>;
}

/**
 * /insights.json as exampleText shows it, per_review in its place with only the analyses shown
 * (per_review is looked up a review at a time, never parsed whole).
 */
function insightsExample(snap: Snapshot): unknown {
  const { faq, summary, pull_quote, ...head } = snap.insights();
  const ids = snap.index.reviews.map((r) => r.id);
  const shown = ids.length > 20 ? ids.slice(0, 2) : ids;
  const perReview: Record<string, unknown> = Object.fromEntries(shown.map((id) => [id, snap.analysisOf(id)]));
  if (shown.length < ids.length) perReview['…'] = `${ids.length - 2} more`;
  return { ...head, per_review: perReview, faq, summary, pull_quote };
}

/** The curl line and the answer this service gives to it now, for the GET endpoints: real data, not placeholders. */
export function liveExamples(snap: Snapshot, baseUrl: string): Record<string, { curl: string; body: unknown }> {
  const json = (b: Buffer) => JSON.parse(b.toString('utf8')) as unknown;
  const search = { min_rating: '4', query: 'on time', limit: '2' };
  const since = snap.index.reviews[1]?.date ?? '2026-01-01';
  const atom = snap.topic('/feed.xml', baseUrl).identity.toString('utf8');
  // The feed up to the end of its first entry: the shape without fifty entries.
  const firstEntry = atom.indexOf('</entry>');
  return {
    getReviewsDataset: { curl: `curl -s ${baseUrl}/reviews.json`, body: json(snap.topic('/reviews.json', baseUrl).identity) },
    getInsights: { curl: `curl -s ${baseUrl}/insights.json`, body: insightsExample(snap) },
    searchReviews: {
      curl: `curl -s '${baseUrl}/api/reviews/search?${new URLSearchParams(search).toString().replace(/\+/g, '%20')}'`,
      body: publishHits(searchReviews(snap.index, SearchQuerySchema.parse(fromQueryString(SearchQuerySchema, search))), baseUrl),
    },
    getReviewsSince: { curl: `curl -s ${baseUrl}/api/reviews/since/${since}`, body: json(snap.since(since, baseUrl).identity) },
    getJsonFeed: { curl: `curl -s ${baseUrl}/api/feed.json`, body: json(snap.topic('/api/feed.json', baseUrl).identity) },
    getAtomFeed: { curl: `curl -s ${baseUrl}/feed.xml`, body: firstEntry < 0 ? atom : `${atom.slice(0, firstEntry + 8)}\n  …\n</feed>` },
    getHealth: { curl: `curl -s ${baseUrl}/healthz`, body: { status: 'ok', revision: snap.revision.revision, reviews: snap.index.reviews.length, updated_at: snap.revision.updated_at, version: VERSION, build: releaseBuild() } },
  };
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/**
 * An example body as it reads best: lists cut to their first two entries and maps (per-review
 * analyses ...) to their first two keys, each cut marked with how much was left out.
 */
export function exampleText(value: unknown): string {
  if (typeof value === 'string') return value;
  const cut = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.length > 2 ? [...v.slice(0, 2).map(cut), `… ${v.length - 2} more`] : v.map(cut);
    if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      const kept = entries.length > 20 ? [...entries.slice(0, 2), ['…', `${entries.length - 2} more`]] : entries;
      return Object.fromEntries(kept.map(([k, x]) => [k, cut(x)]));
    }
    return v;
  };
  return JSON.stringify(cut(value), null, 2);
}

function operationSection(ctx: Ctx, path: string, method: string, op: OperationDoc): Html {
  const params = op.parameters ?? [];
  const responses = Object.entries(op.responses).map(([status, r]) => {
    const resolved = r.$ref ? ctx.openapi.components.responses[r.$ref.split('/').pop()!]! : r;
    return [status, resolved] as const;
  });
  const ok = responses.find(([status]) => status.startsWith('2'))?.[1];
  const okMedia = ok?.content ? Object.entries(ok.content)[0] : undefined;
  const live = ctx.examples[op.operationId];
  const example = live?.body ?? okMedia?.[1].example;
  const id = `op-${op.operationId}`;
  return html`<section class="op" id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h"><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
<p><strong>${op.summary}.</strong> ${inlineMarkdown(op.description ?? '')}</p>
${params.length
    ? html`<h4>Parameters</h4>${scrollTable(
        `Parameters of ${op.summary}`,
        html`<table><thead><tr><th scope="col">Name and place</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead><tbody>${params.map(
          (p) => html`<tr><th scope="row"><code>${breakableName(p.name)}</code><br><span class="muted">${p.in}${p.required ? ', required' : ''}</span></th><td>${typeLabel(p.schema)}</td><td>${inlineMarkdown(p.description ?? '')}</td></tr>`,
        )}</tbody></table>`,
      )}`
    : ''}
${op.requestBody ? html`<h4>Request body</h4><p>${Object.keys(op.requestBody.content).map((t) => html`<code>${t}</code> `)}${inlineMarkdown(op.requestBody.description ?? '')}</p>` : ''}
<h4>Responses</h4>
${scrollTable(
    `Responses of ${op.summary}`,
    html`<table><thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Body</th></tr></thead><tbody>${responses.map(
      ([status, r]) =>
        html`<tr><th scope="row">${status}</th><td>${inlineMarkdown(r.description ?? '')}</td><td>${r.content ? Object.entries(r.content).map(([type, m]) => html`<code>${type}</code>${m.schema ? html` ${typeLabel(m.schema)}` : ''} `) : 'none'}</td></tr>`,
    )}</tbody></table>`,
  )}
${live ? html`<h4>Example</h4>${codeBlock(live.curl, true)}` : ''}
${example === undefined ? '' : html`<h4>Example response${live ? ' (shortened)' : ''}</h4>${codeBlock(exampleText(example))}`}
</section>`;
}

export function renderApiReferencePage(snap: Snapshot, baseUrl: string, openapi: OpenApiDoc): Html {
  const ctx: Ctx = { baseUrl, business: snap.business, openapi, examples: liveExamples(snap, baseUrl) };
  const byTag = openapi.tags.map((tag) => ({
    tag,
    ops: Object.entries(openapi.paths).flatMap(([path, methods]) =>
      // HEAD is GET without the body; the document lists it, this page says so once instead.
      Object.entries(methods).filter(([method, op]) => method !== 'head' && op.tags.includes(tag.name)).map(([method, op]) => ({ path, method, op })),
    ),
  }));
  const schemas = Object.entries(openapi.components.schemas);
  const body = html`<h1>API reference</h1>
<p>${inlineMarkdown(openapi.info.description)} Every <code>GET</code> also answers <code>HEAD</code>. Drawn from <a href="/.well-known/openapi.json">/.well-known/openapi.json</a> (OpenAPI 3.1.0), which is generated from the schemas the service validates with; the examples are this service's own answers.</p>
<p><a class="button" href="/developers/api/interactive">Open the interactive reference</a> <span class="muted">(Scalar: try requests from the browser; loads about 1 MB of script)</span></p>
<div class="ref">
<nav class="ref-toc" aria-label="API reference contents"><ul>${byTag.map(
    ({ tag, ops }) => html`<li><a href="#tag-${slug(tag.name)}">${tag.name}</a><ul>${ops.map(({ path, method, op }) => html`<li><a href="#op-${op.operationId}">${method.toUpperCase()} ${path}</a></li>`)}</ul></li>`,
  )}<li><a href="#schemas">Schemas</a></li></ul></nav>
<div class="ref-body">
${byTag.map(
    ({ tag, ops }) => html`<section class="card" id="tag-${slug(tag.name)}" aria-labelledby="tag-${slug(tag.name)}-h"><h2 id="tag-${slug(tag.name)}-h">${tag.name}</h2>
<p>${inlineMarkdown(tag.description ?? '')}</p>
${ops.map(({ path, method, op }) => operationSection(ctx, path, method, op))}</section>`,
  )}
<section class="card" id="schemas" aria-labelledby="schemas-h"><h2 id="schemas-h">Schemas</h2>
${schemas.map(([name, s]) => html`<section class="schema" id="schema-${name}" aria-labelledby="schema-${name}-h"><h3 id="schema-${name}-h">${name}</h3><p>${inlineMarkdown(s.description ?? '')}</p>${s.properties ? fieldTable(s, `${name} fields`) : html`<p>Type: ${typeLabel(s)}</p>`}</section>`)}
</section>
</div>
</div>`;
  return layout({ title: `API reference · ${ctx.business.name}`, description: 'OpenAPI reference of the reviews API.', baseUrl: ctx.baseUrl, path: '/developers/api', business: ctx.business, wide: true }, body);
}

/**
 * Scalar's interactive reference, on a page of its own: Scalar draws its own landmarks and
 * headings, so it gets none of the site's. Its script (about 1 MB compressed) loads only here.
 * Everything that would call Scalar's own services (fonts, the AI agent, telemetry) is switched off.
 */
export function renderInteractiveApiPage(ctx: { baseUrl: string; business: Business }): Html {
  const config = { url: '/.well-known/openapi.json', withDefaultFonts: false, hideClientButton: true, darkMode: false, telemetry: false, agent: { disabled: true }, showDeveloperTools: 'never' };
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Interactive API reference · ${ctx.business.name}</title>
<meta name="description" content="Interactive OpenAPI reference of the reviews API (Scalar).">
<link rel="canonical" href="${ctx.baseUrl}/developers/api/interactive">
<link rel="icon" href="/favicon.ico" sizes="16x16">
</head>
<body>
<div id="api-docs"><noscript><p>The interactive reference needs JavaScript. Read the <a href="/developers/api">API reference</a> or <a href="/.well-known/openapi.json">the OpenAPI document</a> instead.</p></noscript></div>
<script type="application/json" id="api-docs-config">${jsonScript(config)}</script>
<script src="${assetUrl('scalar.js')}"></script>
<script src="${assetUrl('api-reference.js')}"></script>
</body>
</html>`;
}
