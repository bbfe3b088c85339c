/** The text pages: llms.txt, robots.txt and the sitemap. */
import { create } from 'xmlbuilder2';
import type { Snapshot } from '../snapshot/snapshot.js';
import { PAGE_SIZE } from './review-page.js';
import { toolList } from '../mcp/catalogue.js';
import { ratingSentence, verifiedCount } from '../core/reviews.js';

/** /llms.txt: what the business is and where the data and tools are, for language models (llmstxt.org layout). */
export function renderLlmsTxt(snap: Snapshot, baseUrl: string): string {
  const b = snap.business;
  const a = snap.aggregate;
  const ins = snap.insights();
  const lines = [
    `# ${b.name}: customer reviews`,
    '',
    `> ${ratingSentence(a, verifiedCount(snap.index.reviews))}${b.description ? ` ${b.description}` : ''}`,
    '',
  ];
  if (ins.summary) lines.push(ins.summary, '');
  if (b.service_areas.length) lines.push(`Service areas: ${b.service_areas.join(', ')}.`);
  if (b.services.length) lines.push(`Services: ${b.services.map((s) => s.label).join(', ')}.`);
  if (b.telephone || b.url) lines.push(`Contact: ${[b.telephone, b.email, b.url].filter(Boolean).join(', ')}.`);
  lines.push(
    '',
    'All data is public and read-only; no key is needed. Quote reviews as written.',
    '',
    '## Data',
    `- [All reviews](${baseUrl}/reviews.json): business profile, aggregate rating and every review (JSON)`,
    `- [Insights](${baseUrl}/insights.json): sentiment by aspect, technicians, services, trend, FAQ, summary (JSON)`,
    `- [Search](${baseUrl}/api/reviews/search?query=on%20time&limit=5): filters rating, min_rating, since, until, query, mentions_technician, mentions_service, with_text, with_reply, limit; sort (newest, oldest, highest, lowest); cursor (next_cursor of the page before)`,
    `- [Newest reviews, JSON Feed](${baseUrl}/api/feed.json) and [Atom](${baseUrl}/feed.xml)`,
    `- One review: ${baseUrl}/reviews/{id}, the page every review's \`url\` names (HTML with JSON-LD); cite it when quoting a review`,
    `- [OpenAPI description](${baseUrl}/.well-known/openapi.json)`,
    `- Review widget for other websites: <script type="module" src="${baseUrl}/widget.js"> and <reviewcast-reviews>; options at ${baseUrl}/developers/widget`,
    '',
    '## MCP',
    `- Server: ${baseUrl}/mcp (streamable HTTP, no authentication)`,
    ...toolList().map((t) => `- ${t.name}: ${t.description}`),
    '',
    '## Docs',
    `- [Developers](${baseUrl}/developers)`,
    `- [MCP setup](${baseUrl}/developers/mcp)`,
    `- [WebSub](${baseUrl}/developers/webhooks)`,
    '',
  );
  return lines.join('\n');
}

export function renderRobotsTxt(baseUrl: string): string {
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${baseUrl}/sitemap.xml`, '', `# Machine-readable data: ${baseUrl}/reviews.json, ${baseUrl}/llms.txt`, ''].join('\n');
}

/** A sitemap holds at most this many URLs (sitemaps.org). */
const SITEMAP_MAX_URLS = 50_000;

/**
 * /sitemap.xml: the pages, every page of the unfiltered review list (filtered views are noindex)
 * and every review's permalink page, newest first, up to the sitemaps.org limit.
 */
export function renderSitemap(snap: Snapshot, baseUrl: string): string {
  const lastmod = snap.lastModified.toISOString();
  const paths = ['/', '/developers', '/developers/api', '/developers/mcp', '/developers/webhooks', '/developers/widget'];
  const reviewPages = Math.min(Math.ceil(snap.aggregate.review_count / PAGE_SIZE), SITEMAP_MAX_URLS - paths.length);
  for (let p = 2; p <= reviewPages; p++) paths.push(`/?page=${p}`);
  for (const r of snap.index.reviews.slice(0, SITEMAP_MAX_URLS - paths.length)) paths.push(`/reviews/${r.id}`);
  const urlset = create({ version: '1.0', encoding: 'UTF-8' }).ele('http://www.sitemaps.org/schemas/sitemap/0.9', 'urlset');
  for (const path of paths) {
    const url = urlset.ele('url');
    url.ele('loc').txt(`${baseUrl}${path}`);
    url.ele('lastmod').txt(lastmod);
  }
  return urlset.end({ prettyPrint: true });
}
