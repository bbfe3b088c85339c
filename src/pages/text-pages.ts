import type { Snapshot } from '../live/snapshot.js';
import { toolList } from '../mcp/mcp-server.js';

/** /llms.txt: what the business is and where the data and tools are, for language models (llmstxt.org layout). */
export function renderLlmsTxt(snap: Snapshot, baseUrl: string): string {
  const b = snap.business;
  const a = snap.aggregate;
  const ins = snap.insights();
  const lines = [
    `# ${b.name}: verified customer reviews`,
    '',
    `> ${a.rating_value === null ? 'No reviews yet.' : `Rated ${a.rating_value} out of 5 from ${a.review_count} verified reviews.`}${b.description ? ` ${b.description}` : ''}`,
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
    `- [Search](${baseUrl}/api/reviews/search?query=on%20time&limit=5): filters rating, min_rating, since, until, query, mentions_technician, mentions_service, limit`,
    `- [Newest reviews, JSON Feed](${baseUrl}/api/feed.json) and [Atom](${baseUrl}/feed.xml)`,
    `- [OpenAPI description](${baseUrl}/.well-known/openapi.json)`,
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
  return ['User-agent: *', 'Allow: /', '', `# Machine-readable data: ${baseUrl}/reviews.json, ${baseUrl}/llms.txt`, ''].join('\n');
}
