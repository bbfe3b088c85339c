/** The page shell shared by every HTML page. */
import type { Business } from '../core/schema/business.js';
import { assetUrl } from './assets.js';
import { html, type Html } from './html.js';

export interface PageMeta {
  title: string;
  description: string;
  baseUrl: string;
  path: string;
  /** The URL this page is the canonical copy of (default: baseUrl + path); null for none. */
  canonical?: string | null;
  /** Filtered views repeat the canonical pages' content, so search engines are asked not to index them. */
  noindex?: boolean;
  business: Business;
  head?: Html;
  /** A page that needs the whole width (the API reference, with its contents beside it). */
  wide?: boolean;
}

/** The page shell: landmarks, a skip link, navigation, feed discovery and our own stylesheet only. */
export function layout(meta: PageMeta, body: Html): Html {
  const devNav: [string, string][] = [
    ['/developers', 'Developers'],
    ['/developers/api', 'API reference'],
    ['/developers/mcp', 'MCP'],
    ['/developers/webhooks', 'WebSub'],
    ['/developers/widget', 'Widget'],
  ];
  // Customers on the review pages see no developer links up top (they are in the footer);
  // the developer pages keep their own navigation in the header.
  const developerPage = meta.path.startsWith('/developers');
  const navList = (links: [string, string][]) => html`<ul>${links.map(([href, label]) => html`<li><a href="${href}"${href === meta.path ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${meta.title}</title>
<meta name="description" content="${meta.description}">
${meta.canonical === null ? '' : html`<link rel="canonical" href="${meta.canonical ?? `${meta.baseUrl}${meta.path}`}">`}
${meta.noindex ? html`<meta name="robots" content="noindex">` : ''}
<link rel="icon" href="/favicon.ico" sizes="16x16">
<link rel="stylesheet" href="${assetUrl('site.css')}">
<script src="${assetUrl('copy.js')}" defer></script>
<link rel="alternate" type="application/atom+xml" title="Reviews of ${meta.business.name} (Atom)" href="${meta.baseUrl}/feed.xml">
<link rel="alternate" type="application/feed+json" title="Reviews of ${meta.business.name} (JSON Feed)" href="${meta.baseUrl}/api/feed.json">
<link rel="alternate" type="text/plain" title="Guide for language models" href="${meta.baseUrl}/llms.txt">
${meta.head}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
<a class="brand" href="/">${meta.business.name}</a>
${developerPage ? html`<nav aria-label="Site">${navList([['/', 'Reviews'], ...devNav])}</nav>` : ''}
</div></header>
<main id="main" class="wrap${meta.wide ? ' wide' : ''}">
${body}
</main>
<footer class="site"><div class="wrap">
<span>Customer reviews of ${meta.business.name}, published with Reviewcast.</span>
<nav aria-label="For developers">${navList(devNav)}</nav>
<span><a href="/feed.xml">Atom</a> · <a href="/api/feed.json">JSON Feed</a> · <a href="/reviews.json">Data</a> · <a href="/llms.txt">llms.txt</a></span>
</div></footer>
</body>
</html>`;
}
