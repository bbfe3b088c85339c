/** The review widget's server side: the data it shows (/embed.json), the iframe page (/embed) and the builder (/developers/widget). */
import { assetUrl } from './assets.js';
import { pct } from '../core/insights/numbers.js';
import { aggregateRating, formatCount, publishReview, verifiedCount } from '../core/reviews.js';
import { matchingReviews, searchReviews } from '../core/search.js';
import type { Business } from '../core/schema/business.js';
import { jsonSchemaOf } from '../core/schema/json-schema.js';
import type { SearchRequest } from '../core/schema/search.js';
import { WIDGET_LANGS, WidgetDataQuerySchema, WidgetOptionsSchema, type WidgetData, type WidgetDataQuery, type WidgetOptions } from '../core/schema/widget.js';
import type { ValidationIssue } from '../core/schema/error.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { html, type Html } from './html.js';
import { layout } from './layout.js';

/** At most this many aspects in the summary's "what customers mention". */
const MENTIONS = 6;

/** The aspects the reviews mention most, counted from each review's aspects in the insights, so a scope counts only its own reviews. */
function mentions(snap: Snapshot, reviews: readonly { id: string }[]): WidgetData['mentions'] {
  const ins = snap.insights();
  const counts = new Map<string, { all: number; positive: number }>();
  for (const r of reviews) {
    for (const hit of snap.aspectsOf(r.id)) {
      const c = counts.get(hit.aspect) ?? { all: 0, positive: 0 };
      c.all += 1;
      if (hit.polarity === 'positive') c.positive += 1;
      counts.set(hit.aspect, c);
    }
  }
  return ins.aspects
    .filter((a) => counts.has(a.id))
    .map((a) => ({ id: a.id, label: a.label, mention_count: counts.get(a.id)!.all, positive_pct: pct(counts.get(a.id)!.positive, counts.get(a.id)!.all) }))
    .sort((x, y) => y.mention_count - x.mention_count || (x.id < y.id ? -1 : 1))
    .slice(0, MENTIONS);
}

/**
 * What the widget shows. The figures (average, count, verified, histogram, mentions) are those
 * of every review in scope (source, technician, service), never only of the reviews min-rating
 * and with-text let through, so a filtered widget cannot pass off its selection as the rating.
 */
export function widgetData(snap: Snapshot, q: WidgetDataQuery, baseUrl: string): WidgetData {
  const scope: SearchRequest = { source: q.source, mentions_technician: q.technician, mentions_service: q.service, limit: 1 };
  const scoped = q.source !== undefined || q.technician !== undefined || q.service !== undefined;
  const inScope = scoped ? matchingReviews(snap.index, scope) : snap.index.reviews;
  const agg = scoped ? aggregateRating(inScope) : snap.aggregate;
  const hits = searchReviews(snap.index, { ...scope, min_rating: q['min-rating'], with_text: q['with-text'], sort: q.sort, limit: q.limit, cursor: q.cursor });
  const shows = q.layout === 'carousel' || q.layout === 'list';
  const page = new URLSearchParams();
  if (q.technician) page.set('technician', q.technician);
  if (q.service) page.set('service', q.service);
  return {
    business: { name: snap.business.name, url: `${baseUrl}/${page.size ? `?${page}` : ''}` },
    rating: { rating_value: agg.rating_value, review_count: agg.review_count, verified_count: verifiedCount(inScope), distribution: agg.distribution },
    matched: hits.matched,
    reviews: shows ? hits.reviews.map((r) => publishReview(r, baseUrl)) : [],
    next_cursor: shows ? hits.next_cursor : null,
    mentions: q.layout === 'summary' ? mentions(snap, inScope) : [],
    ...(hits.notices && { notices: hits.notices }),
  };
}

/** The element's attributes for a set of options: only those that differ from the defaults. */
export function widgetAttributes(o: Partial<WidgetOptions>): [string, string][] {
  const defaults = WidgetOptionsSchema.parse({});
  return Object.entries(o)
    .filter(([k, v]) => v !== undefined && defaults[k as keyof WidgetOptions] !== v)
    .map(([k, v]) => [k, String(v)]);
}

/** The height in em the widget holds for these options (reservedEm in public/widget.js; a browser test compares the two). */
export function reservedEm(o: Pick<WidgetOptions, 'layout' | 'limit' | 'min-rating' | 'with-text' | 'source' | 'technician' | 'service'>): number {
  const scope = o.source !== undefined || o.technician !== undefined || o.service !== undefined ? 1 : 0;
  const hides = (o['min-rating'] !== undefined && o['min-rating'] > 1 ? 1 : 0) + (o['with-text'] !== undefined ? 1 : 0);
  const phrases = o.layout === 'badge' ? 0 : o.layout === 'summary' ? scope : scope + hides;
  const base = { badge: 2.6, carousel: 17.1, summary: 28.9, list: 10.1 + 8.6 * o.limit }[o.layout];
  return base + (phrases ? (phrases + 1) * 1.4 + 0.2 : 0);
}

/** The iframe's height in pixels at the widget's default type size (15 px), with the embed page's 1 px padding. */
export function embedHeight(o: Parameters<typeof reservedEm>[0]): number {
  return Math.ceil(reservedEm(o) * 15) + 2;
}

/** The /embed page's title and the iframe's, in the widget's language (its heading's words, public/widget.js, with the business's name). */
const EMBED_TITLES: Record<WidgetOptions['lang'], (name: string) => string> = {
  en: (name) => `Customer reviews of ${name}`,
  de: (name) => `Kundenbewertungen für ${name}`,
  fr: (name) => `Avis clients sur ${name}`,
  es: (name) => `Opiniones de clientes sobre ${name}`,
};

/** GET /embed: the widget alone in a page, for site builders that take an iframe but strip scripts. */
export function renderEmbedPage(o: WidgetOptions, business: Business): Html {
  const attrs = widgetAttributes(o);
  return html`<!doctype html>
<html lang="${o.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${EMBED_TITLES[o.lang](business.name)}</title>
<base target="_blank">
<style>html,body{margin:0;background:transparent}body{padding:1px}</style>
<script type="module" src="/widget.js"></script>
<script type="module" src="${assetUrl('embed.js')}"></script>
</head>
<body>
<main><reviewcast-reviews${attrs.map(([k, v]) => html` ${k}="${v}"`)}></reviewcast-reviews></main>
</body>
</html>`;
}

/** /embed with options the schema refuses: each problem named, for whoever set up the iframe. */
export function renderEmbedError(issues: ValidationIssue[]): Html {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Invalid review widget options</title></head>
<body>
<main><h1>Invalid review widget options</h1><ul>${issues.map((i) => html`<li><code>${i.parameter}</code>: ${i.message}</li>`)}</ul><p>Every option is described at <a href="/developers/widget">/developers/widget</a>.</p></main>
</body>
</html>`;
}

interface FieldDoc {
  name: string;
  values: string;
  fallback: string;
  meaning: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  /** The schema's one message for whatever is wrong with a value, as /embed says it after the name. */
  message: string;
  kind: 'enum' | 'number' | 'flag' | 'text';
}

/** Every attribute, from WidgetOptionsSchema: its values, default, meaning and message. */
export function widgetAttributeDocs(): FieldDoc[] {
  return Object.entries(WidgetOptionsSchema.shape).map(([name, field]) => {
    const s = jsonSchemaOf(field, 'input') as { type?: string; enum?: string[]; minimum?: number; maximum?: number; default?: unknown; description?: string; maxLength?: number };
    const kind = s.enum ? 'enum' : s.type === 'integer' || s.type === 'number' ? 'number' : s.type === 'boolean' ? 'flag' : 'text';
    const values =
      kind === 'enum' ? s.enum!.join(', ') : kind === 'number' ? `${s.minimum}-${s.maximum}` : kind === 'flag' ? 'true, false (a bare attribute is true)' : `text, up to ${s.maxLength} characters`;
    // No option takes null, and each has one message whatever is wrong, so refusing null says it.
    const message = field.safeParse(null).error?.issues[0]?.message ?? '';
    return { name, values, fallback: s.default === undefined ? '(none)' : String(s.default), meaning: s.description ?? '', enum: s.enum, minimum: s.minimum, maximum: s.maximum, message, kind };
  });
}

/** The attribute table of the builder page (docs/widget.md holds the same list; a test compares them). */
function attributeTable(): Html {
  return html`<div class="table-scroll" tabindex="0"><table><caption class="sr-only">Attributes of reviewcast-reviews</caption>
<thead><tr><th scope="col">Attribute</th><th scope="col">Values</th><th scope="col">Default</th><th scope="col">What it does</th></tr></thead>
<tbody>${widgetAttributeDocs().map((f) => html`<tr><th scope="row"><code>${f.name}</code></th><td>${f.values}</td><td>${f.fallback}</td><td>${f.meaning}</td></tr>`)}</tbody></table></div>`;
}

const code = (id: string, s: string, attrs: Html = html``) => html`<pre tabindex="0"><code id="${id}"${attrs}>${s}</code></pre>`;

/** The iframe's title attribute as the snippet writes it. */
const iframeTitle = (lang: WidgetOptions['lang'], business: Business) => EMBED_TITLES[lang](business.name).replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The snippets for a set of options: the script with the element, and the iframe. */
export function widgetSnippets(baseUrl: string, business: Business, o: WidgetOptions): { script: string; iframe: string } {
  const attrs = widgetAttributes(o);
  const q = new URLSearchParams(attrs);
  return {
    script: `<script type="module" src="${baseUrl}/widget.js"></script>\n<reviewcast-reviews${attrs.map(([k, v]) => ` ${k}="${v}"`).join('')}></reviewcast-reviews>`,
    iframe: `<iframe src="${baseUrl}/embed${attrs.length ? `?${q.toString().replace(/&/g, '&amp;')}` : ''}" title="${iframeTitle(o.lang, business)}" width="100%" height="${embedHeight(o)}" style="border:0" loading="lazy"></iframe>`,
  };
}

/** GET /developers/widget: pick a layout and options, see the widget live, copy the snippet. */
export function renderWidgetBuilderPage(snap: Snapshot, baseUrl: string): Html {
  const b = snap.business;
  const defaults = WidgetOptionsSchema.parse({});
  const snippets = widgetSnippets(baseUrl, b, defaults);
  const sources = [...new Set(snap.index.reviews.map((r) => r.source))].sort();
  const choices: Record<string, string[]> = { source: sources, technician: b.technicians.map((t) => t.name), service: b.services.map((s) => s.id) };
  // The example of what the widget claims, in the figures it would show for this business.
  const example = widgetData(snap, WidgetDataQuerySchema.parse({ layout: 'badge', 'min-rating': 4 }), baseUrl);
  const titles = Object.fromEntries(WIDGET_LANGS.map((lang) => [lang, iframeTitle(lang, b)]));
  const control = (f: FieldDoc): Html => {
    const id = `w-${f.name}`;
    const options = (values: string[], labels: string[] = values) =>
      html`${values.map((v, i) => html`<option value="${v}"${v === f.fallback ? html` selected` : ''}>${labels[i]}</option>`)}`;
    let input: Html;
    if (f.kind === 'enum') input = html`<select id="${id}" name="${f.name}">${options(f.enum!)}</select>`;
    else if (f.name === 'limit') input = html`<input id="${id}" name="${f.name}" type="number" min="${f.minimum}" max="${f.maximum}" value="${f.fallback}" data-message="${f.message}">`;
    else if (f.kind === 'number') input = html`<select id="${id}" name="${f.name}"><option value="">Any</option>${options(['2', '3', '4', '5'], ['2 and up', '3 and up', '4 and up', '5 only'])}</select>`;
    else if (f.name === 'live') input = html`<select id="${id}" name="${f.name}">${options(['false', 'true'], ['no', 'yes'])}</select>`;
    else if (f.kind === 'flag') input = html`<select id="${id}" name="${f.name}"><option value="">Any</option>${options(['true', 'false'], ['with text only', 'rating only'])}</select>`;
    else input = html`<select id="${id}" name="${f.name}"><option value="">Any</option>${options(choices[f.name] ?? [])}</select>`;
    return html`<label for="${id}"><code>${f.name}</code>${input}</label>`;
  };
  const body = html`<h1>Reviews on your own website</h1>
<p>Show the reviews of ${b.name} on any website with one script and one element: it loads nothing from anywhere but ${baseUrl}, the host page's CSS cannot change it (shadow DOM), and it holds its height before the reviews arrive, so nothing on the page jumps. Every review links to its own page here.</p>
<section class="card" aria-labelledby="build-h"><h2 id="build-h">Build your widget</h2>
<form id="widget-form" class="filters" action="/developers/widget">
${widgetAttributeDocs().map(control)}
</form>
<h3 id="preview-h">Preview</h3>
<div id="widget-preview" aria-labelledby="preview-h"><reviewcast-reviews></reviewcast-reviews></div>
<h3>Paste this where the reviews should appear</h3>
${code('snippet-script', snippets.script)}
<p><button type="button" class="button" data-copy="snippet-script" aria-describedby="snippet-script-problem">Copy snippet</button> <span id="copy-status" role="status"></span> <span id="snippet-script-problem" class="error"></span></p>
<h3>Site builder that strips scripts? Use the iframe</h3>
${code('snippet-iframe', snippets.iframe, html` data-titles="${JSON.stringify(titles)}"`)}
<p><button type="button" class="button" data-copy="snippet-iframe" aria-describedby="snippet-iframe-problem">Copy iframe</button> <span id="snippet-iframe-problem" class="error"></span></p>
<p>The iframe page tells its parent its height: where the host page can run a script, resize the frame from the message (<code>event.source</code> is the frame's window, <code>event.data</code> is <code>{ "type": "reviewcast:resize", "height": <var>pixels</var> }</code>):</p>
${code('snippet-resize', `<script>addEventListener('message', (e) => { for (const f of document.querySelectorAll('iframe[src^="${baseUrl}/embed"]')) if (e.source === f.contentWindow && e.data?.type === 'reviewcast:resize') f.height = e.data.height; });</script>`)}
</section>
<section class="card" aria-labelledby="attrs-h"><h2 id="attrs-h">Attributes</h2>
<p>The same names are the query parameters of <code>/embed</code>; one schema validates both, and a value it refuses is named in the widget's error message.</p>
${attributeTable()}
</section>
<section class="card" aria-labelledby="theme-h"><h2 id="theme-h">Theming</h2>
<p>Colours and type come from CSS custom properties set on the element (or any ancestor): <code>--rc-bg</code>, <code>--rc-fg</code>, <code>--rc-muted</code>, <code>--rc-accent</code>, <code>--rc-star</code>, <code>--rc-border</code>, <code>--rc-track</code>, <code>--rc-positive</code>, <code>--rc-radius</code>, <code>--rc-font-family</code>, <code>--rc-font-size</code>. Parts can be styled with <code>::part()</code>: <code>widget</code>, <code>box</code>, <code>heading</code>, <code>notice</code>, <code>list</code>, <code>review</code>, <code>slide</code>, <code>slides</code>, <code>stars</code>, <code>button</code>, <code>link</code>, <code>badge</code>, <code>histogram</code>, <code>mentions</code>, <code>row</code>, <code>bar</code>, <code>error</code>.</p>
${code('snippet-theme', `reviewcast-reviews { --rc-accent: #7a1f5c; --rc-font-family: Georgia, serif; --rc-radius: 0; }\nreviewcast-reviews::part(heading) { text-transform: uppercase; }`)}
<p>Light or dark follows the visitor's setting (<code>prefers-color-scheme</code>) unless <code>theme</code> fixes it.</p>
</section>
<section class="card" aria-labelledby="honest-h"><h2 id="honest-h">What the widget claims</h2>
<p>The average, the count, the verified count, the histogram and what customers mention are always those of every review in scope (all reviews, or those of one <code>source</code>, <code>technician</code> or <code>service</code>, which the widget names). <code>min-rating</code> and <code>with-text</code> only choose which reviews the carousel and list show, and the widget says so: "Showing 4-star and higher reviews (${formatCount(example.matched)} of ${formatCount(example.rating.review_count)} reviews)."</p>
</section>
<script src="${assetUrl('widget-builder.js')}"></script>
<script type="module" src="/widget.js"></script>`;
  return layout({ title: `Review widget · ${b.name}`, description: `Embed the reviews of ${b.name} on your own website.`, baseUrl, path: '/developers/widget', business: b }, body);
}
