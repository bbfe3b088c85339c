// <reviewcast-reviews>: the review widget, a web component with no dependencies that talks only to the origin it was loaded from.
const ORIGIN = new URL(import.meta.url).origin;
/** The attributes, as WidgetOptionsSchema names them; the server validates them (GET /embed.json). */
const ATTRS = ['layout', 'min-rating', 'source', 'technician', 'service', 'limit', 'with-text', 'sort', 'lang', 'theme', 'live'];
const DATA = ATTRS.slice(0, 8);
const FLAGS = ['with-text', 'live'];

const T = {
  en: {
    reviews: ['{n} review', '{n} reviews'], verified: '{n} verified', rated: 'Rated {v} out of 5', stars: '{n} out of 5 stars', title: 'Customer reviews',
    summary: 'What customers say', mention: 'What customers mention: % positive', positive: '{p}% positive', of: '{n} mentions', more: 'More reviews', all: 'See all reviews',
    prev: 'Previous review', next: 'Next review', pause: 'Stop rotating', play: 'Rotate', slide: '{i} of {n}', min: 'Showing {s}-star and higher reviews',
    text: 'Showing reviews with written text', notext: 'Showing rating-only reviews', shown: '{a} of {b} reviews', src: 'on {s}', who: 'mentioning {s}',
    none: 'No reviews to show.', site: 'this website', error: 'Reviews could not be loaded.', only: 'Rating only, no written review.', mark: 'Verified', star: '{n} star', starN: '{n} stars',
  },
  de: {
    reviews: ['{n} Bewertung', '{n} Bewertungen'], verified: '{n} verifiziert', rated: 'Bewertet mit {v} von 5', stars: '{n} von 5 Sternen', title: 'Kundenbewertungen',
    summary: 'Was Kunden sagen', mention: 'Was Kunden erwähnen: % positiv', positive: '{p} % positiv', of: '{n} Erwähnungen', more: 'Weitere Bewertungen', all: 'Alle Bewertungen',
    prev: 'Vorherige Bewertung', next: 'Nächste Bewertung', pause: 'Anhalten', play: 'Abspielen', slide: '{i} von {n}', min: 'Es werden Bewertungen ab {s} Sternen gezeigt',
    text: 'Es werden Bewertungen mit Text gezeigt', notext: 'Es werden Bewertungen ohne Text gezeigt', shown: '{a} von {b} Bewertungen', src: 'auf {s}', who: 'die {s} nennen',
    none: 'Keine Bewertungen.', site: 'dieser Website', error: 'Bewertungen konnten nicht geladen werden.', only: 'Nur Sterne, kein Text.', mark: 'Verifiziert', star: '{n} Stern', starN: '{n} Sterne',
  },
  fr: {
    reviews: ['{n} avis', '{n} avis'], verified: '{n} vérifiés', rated: 'Noté {v} sur 5', stars: '{n} sur 5 étoiles', title: 'Avis clients',
    summary: 'Ce que disent les clients', mention: 'Ce que les clients mentionnent : % positifs', positive: '{p} % positifs', of: '{n} mentions', more: "Plus d'avis", all: 'Voir tous les avis',
    prev: 'Avis précédent', next: 'Avis suivant', pause: 'Arrêter', play: 'Lire', slide: '{i} sur {n}', min: 'Avis de {s} étoiles et plus uniquement',
    text: 'Avis avec texte uniquement', notext: 'Avis sans texte uniquement', shown: '{a} avis sur {b}', src: 'sur {s}', who: 'mentionnant {s}',
    none: 'Aucun avis à afficher.', site: 'ce site', error: "Les avis n'ont pas pu être chargés.", only: 'Note seule, sans texte.', mark: 'Vérifié', star: '{n} étoile', starN: '{n} étoiles',
  },
  es: {
    reviews: ['{n} reseña', '{n} reseñas'], verified: '{n} verificadas', rated: 'Valorado con {v} de 5', stars: '{n} de 5 estrellas', title: 'Opiniones de clientes',
    summary: 'Lo que dicen los clientes', mention: 'Lo que mencionan los clientes: % positivas', positive: '{p} % positivas', of: '{n} menciones', more: 'Más reseñas', all: 'Ver todas las reseñas',
    prev: 'Reseña anterior', next: 'Reseña siguiente', pause: 'Detener', play: 'Reproducir', slide: '{i} de {n}', min: 'Se muestran reseñas de {s} estrellas o más',
    text: 'Se muestran reseñas con texto', notext: 'Se muestran reseñas sin texto', shown: '{a} de {b} reseñas', src: 'en {s}', who: 'que mencionan a {s}',
    none: 'No hay reseñas.', site: 'este sitio web', error: 'No se pudieron cargar las reseñas.', only: 'Solo valoración, sin texto.', mark: 'Verificada', star: '{n} estrella', starN: '{n} estrellas',
  },
};
/**
 * The options the server never sees (it is sent only the data options), with the values
 * WidgetOptionsSchema allows: a bad one is refused here in the schema's words ("must be a, b or c"),
 * as the server refuses the others; test/widget.test.ts holds the two equal.
 */
const OWN = { lang: Object.keys(T), theme: ['auto', 'light', 'dark'], live: ['true', 'false'] };
const SOURCES = { google: 'Google', yelp: 'Yelp', facebook: 'Facebook', tripadvisor: 'Tripadvisor', trustpilot: 'Trustpilot', bbb: 'BBB', angi: 'Angi', houzz: 'Houzz', nextdoor: 'Nextdoor' };
const sourceName = (s, t) => SOURCES[s] ?? (s === 'website' ? t.site : s.charAt(0).toUpperCase() + s.slice(1));

/**
 * The height in em each layout takes, held before its data arrives so nothing on the host page
 * moves: fixed parts (cards clamp their text) plus the notice, a line more than it has phrases.
 * src/pages/widget.ts (embedHeight) computes the same for the iframe; a test compares them.
 */
const BASE = { badge: 2.6, carousel: 17.1, summary: 28.9, list: 10.1 };
const CARD = 8.6;
const CSS = `
:host{display:block!important;contain:layout paint style}
:host([hidden]){display:none!important}
.w{all:initial;display:block;box-sizing:border-box;font:var(--rc-font-size,15px)/1.4 var(--rc-font-family,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);
--bg:var(--rc-bg,#fff);--fg:var(--rc-fg,#1b2430);--muted:var(--rc-muted,#545e6c);--accent:var(--rc-accent,#0b57a4);--star:var(--rc-star,#b86e00);--line:var(--rc-border,#d3d9e1);--track:var(--rc-track,#e6e9ee);
color:var(--fg);overflow:hidden;text-align:left;direction:ltr}
@media (prefers-color-scheme:dark){:host(:not([theme=light])) .w{--bg:var(--rc-bg,#161b22);--fg:var(--rc-fg,#e6edf3);--muted:var(--rc-muted,#a3adb9);--accent:var(--rc-accent,#7cc0ff);--star:var(--rc-star,#f0b429);--line:var(--rc-border,#3a424d);--track:var(--rc-track,#2d333b)}}
:host([theme=dark]) .w{--bg:var(--rc-bg,#161b22);--fg:var(--rc-fg,#e6edf3);--muted:var(--rc-muted,#a3adb9);--accent:var(--rc-accent,#7cc0ff);--star:var(--rc-star,#f0b429);--line:var(--rc-border,#3a424d);--track:var(--rc-track,#2d333b)}
.box{background:var(--bg);border:1px solid var(--line);border-radius:var(--rc-radius,10px);padding:.9em 1em}
*{box-sizing:border-box}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
h2{font-size:1.15em;line-height:1.3;margin:0 0 .3em;font-weight:700}
h3{font-size:1em;line-height:1.4;margin:0;font-weight:600}
p{margin:0}
ul{list-style:none;margin:0;padding:0}
.one{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.muted{color:var(--muted)}
.line{display:flex;align-items:center;gap:.5em;margin:0 0 .2em}
.note{color:var(--muted);margin:0 0 .2em}
.st{position:relative;display:inline-block;white-space:nowrap;color:var(--line);letter-spacing:.05em;line-height:1}
.st>span+span{position:absolute;inset:0 auto 0 0;overflow:hidden;color:var(--star)}
.badge{display:inline-flex;max-width:100%;align-items:center;gap:.5em;height:2.6em;padding:0 .9em;border:1px solid var(--line);border-radius:99px;background:var(--bg);color:var(--fg);text-decoration:none;white-space:nowrap;overflow:hidden}
.badge strong{font-weight:700}
.card{height:8.6em;overflow:hidden;border-top:1px solid var(--line);padding:.6em 0}
.card:focus{outline:2px solid var(--accent);outline-offset:-2px}
.meta{display:flex;gap:.6em;align-items:center;white-space:nowrap;overflow:hidden;color:var(--muted)}
.text{margin:.2em 0 0;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;overflow-wrap:anywhere}
.foot{display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:center;margin-top:.6em;min-height:2.6em}
button{font:inherit;color:var(--accent);background:var(--bg);border:1px solid var(--accent);border-radius:6px;min-height:2.6em;min-width:2.6em;padding:0 .8em;cursor:pointer}
.ctrls{display:flex;gap:.5em;justify-content:flex-end;margin-top:.4em}
.slides{touch-action:pan-y}
.row{display:grid;grid-template-columns:min(15em,45%) 1fr 4.2em;gap:.6em;align-items:center;height:1.6em;white-space:nowrap}
.row>span:first-child{overflow:hidden;text-overflow:ellipsis}
.bar{height:.7em;background:var(--track);border-radius:99px;overflow:hidden}
.bar>span{display:block;height:100%;background:var(--star)}
.pos>span{background:var(--rc-positive,#2f8f4e)}
.num{text-align:right;font-variant-numeric:tabular-nums}
h3.sub{margin:.6em 0 .2em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.err{color:var(--fg)}
`;

let sheet = null;
let seq = 0;
function styles() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  return sheet;
}

/** An element with attributes and children; text is always set as text, never parsed as HTML. */
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? '' : String(v));
  el.append(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  return el;
}

/** Decimal text, as the server's query-string face reads a number (src/core/schema/query-string.ts). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const maxAge = (res) => Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1] ?? 300);

class ReviewcastReviews extends HTMLElement {
  static observedAttributes = ATTRS;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.adoptedStyleSheets = [styles()];
    this.wrap = h('div', { class: 'w', part: 'widget' });
    this.root.append(this.wrap);
    this.etag = null;
  }

  connectedCallback() {
    this.started = true;
    this.reserve();
    this.schedule();
  }

  disconnectedCallback() {
    this.started = false;
    this.stop();
  }

  attributeChangedCallback() {
    // An upgrade reports every attribute before connectedCallback; those are loaded once, from there.
    if (this.started) this.schedule();
  }

  /** One load for any number of attribute changes made together. */
  schedule() {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      if (!this.started) return;
      this.etag = null;
      this.reserve();
      this.load();
    });
  }

  stop() {
    clearTimeout(this.poll);
    clearInterval(this.rotate);
    this.aborter?.abort();
  }

  /**
   * An attribute as WidgetOptionsSchema reads the same /embed parameter: as written, never trimmed
   * (theme=" dark" is refused there, and :host([theme=dark]) would not match it here), a bare flag
   * being true. The data options are sent to /embed.json as written, for the schema there to
   * refuse (or, a source, trim).
   */
  opt(name) {
    const v = this.getAttribute(name);
    if (v === null) return null;
    return FLAGS.includes(name) && v === '' ? 'true' : v;
  }

  get layout() {
    return this.opt('layout') ?? 'list';
  }

  /** A number option as /embed reads its query (decimal text, as written: " 5" is not 5), else NaN. */
  numberOpt(name) {
    const v = this.opt(name);
    return v !== null && DECIMAL.test(v) ? Number(v) : NaN;
  }

  /** min-rating when /embed would take it (a whole number from 1 to 5), else undefined: a refused one shows no notice. */
  get minRating() {
    const n = this.numberOpt('min-rating');
    return Number.isInteger(n) && n >= 1 && n <= 5 ? n : undefined;
  }

  get limit() {
    const n = this.opt('limit') === null ? 5 : this.numberOpt('limit');
    return Number.isInteger(n) && n >= 1 && n <= 20 ? n : 5;
  }

  get t() {
    return T[this.lang];
  }

  get lang() {
    const l = this.opt('lang');
    return OWN.lang.includes(l) ? l : 'en';
  }

  /** What the schema says of each option the server never sees and refuses, quoting the value as the server does (40 characters). */
  invalid() {
    return Object.entries(OWN).flatMap(([name, ok]) => {
      const v = this.opt(name);
      if (v === null || ok.includes(v)) return [];
      const c = [...v];
      return `${name}: must be ${ok.slice(0, -1).join(', ')} or ${ok.at(-1)} (got "${c.length > 40 ? `${c.slice(0, 40).join('')}…` : v}")`;
    });
  }

  /** The phrases of the notice: one for the scope (source, technician, service), and for carousel and list one per filter that hides reviews. */
  phrases() {
    const l = this.layout;
    if (l === 'badge') return 0;
    const scope = ['source', 'technician', 'service'].some((a) => this.opt(a)) ? 1 : 0;
    if (l === 'summary') return scope;
    const wt = this.opt('with-text');
    return scope + ((this.minRating ?? 0) > 1 ? 1 : 0) + (wt === 'true' || wt === 'false' ? 1 : 0);
  }

  /** The height this widget holds, in em of its type size. */
  get reservedEm() {
    const l = BASE[this.layout] === undefined ? 'list' : this.layout;
    const n = this.phrases();
    return BASE[l] + (l === 'list' ? CARD * this.limit : 0) + (n ? (n + 1) * 1.4 + 0.2 : 0);
  }

  /** The same in pixels at the widget's type size (the builder sizes the iframe with it). */
  get reservedHeight() {
    return Math.ceil(this.reservedEm * parseFloat(getComputedStyle(this.wrap).fontSize));
  }

  reserve() {
    this.wrap.style.minHeight = `${this.reservedEm}em`;
  }

  query(cursor) {
    const q = new URLSearchParams();
    for (const name of DATA) {
      const v = this.opt(name);
      if (v !== null) q.set(name, v);
    }
    if (cursor) q.set('cursor', cursor);
    return `${ORIGIN}/embed.json?${q}`;
  }

  async fetchData(cursor, conditional) {
    this.aborter?.abort();
    this.aborter = new AbortController();
    const headers = conditional && this.etag ? { 'if-none-match': this.etag } : {};
    const res = await fetch(this.query(cursor), { headers, signal: this.aborter.signal, credentials: 'omit' });
    return res;
  }

  async load(conditional = false) {
    clearTimeout(this.poll);
    let res;
    try {
      res = await this.fetchData(null, conditional);
    } catch (e) {
      if (e.name !== 'AbortError') this.fail();
      return;
    }
    // The data is fetched even with an option refused here, so that the server names its own refusals too.
    const refused = this.invalid().length;
    if (this.opt('live') === 'true' && !refused) this.poll = setTimeout(() => this.refresh(), Math.max(1, maxAge(res)) * 1000);
    if (res.status === 304) return;
    if (!res.ok || refused) return this.fail(await res.json().catch(() => null));
    this.etag = res.headers.get('etag');
    this.data = await res.json();
    // A technician or service the profile does not know (a typo in the embed code): told to the
    // site's developer, not to its visitors.
    for (const n of this.data.notices ?? []) console.warn(`<reviewcast-reviews>: ${n.message}`);
    this.render();
  }

  /** A live update: waits while a visitor is using the widget, so nothing moves under them. */
  refresh() {
    if (this.root.activeElement || this.matches(':hover')) this.poll = setTimeout(() => this.refresh(), 5000);
    else this.load(true);
  }

  /** An error or nothing to show: the widget takes the space of what it shows, not the height its layout would have taken. */
  shrink() {
    this.wrap.style.minHeight = '';
  }

  /** The error, naming every option refused: the server's (data options, in schema order) and then this element's, as /embed lists them. */
  fail(body) {
    const issues = [...(body?.issues?.map((i) => `${i.parameter}: ${i.message}`) ?? []), ...this.invalid()].join('; ');
    this.shrink();
    this.wrap.replaceChildren(h('div', { class: 'box err', part: 'error', role: 'alert' }, this.t.error, issues ? h('span', { class: 'sr' }, ` ${issues}`) : null));
    if (issues) this.wrap.firstChild.title = issues;
  }

  say(key, vars = {}) {
    let s = this.t[key];
    if (Array.isArray(s)) s = s[new Intl.PluralRules(this.lang).select(vars.n) === 'one' ? 0 : 1];
    return s.replace(/\{(\w)\}/g, (_, k) => (typeof vars[k] === 'number' ? this.num(vars[k]) : vars[k]));
  }

  num(n) {
    return new Intl.NumberFormat(this.lang).format(n);
  }

  stars(value, label) {
    const fill = h('span', { 'aria-hidden': 'true' }, '★★★★★');
    fill.style.width = `${(value / 5) * 100}%`;
    return h('span', { class: 'st', role: 'img', 'aria-label': label, part: 'stars' }, h('span', { 'aria-hidden': 'true' }, '★★★★★'), fill);
  }

  /** "4.62 · 320 reviews, 291 verified": the total and, apart, how many are verified. */
  totals() {
    const r = this.data.rating;
    return [
      r.rating_value === null ? null : this.stars(r.rating_value, this.say('rated', { v: this.num(r.rating_value) })),
      r.rating_value === null ? null : h('strong', {}, this.num(r.rating_value)),
      h('span', { class: 'one' }, `${this.say('reviews', { n: r.review_count })}, ${this.say('verified', { n: r.verified_count })}`),
    ];
  }

  /** The scope in words: "on Google, mentioning Tom"; the source trimmed, as the schema scopes the data by it. */
  scope() {
    return [this.opt('source') && this.say('src', { s: sourceName(this.opt('source').trim(), this.t) }), ...['technician', 'service'].map((a) => this.opt(a) && this.say('who', { s: this.opt(a) }))].filter(Boolean);
  }

  /** What narrows the reviews: the scope (source, technician, service) and, for carousel and list, what the filters hide. */
  notes(hiding) {
    const parts = [];
    const scope = this.scope();
    if (scope.length) parts.push(`${this.t.title}: ${scope.join(', ')}.`);
    if (hiding) {
      const min = this.minRating ?? 0;
      const wt = this.opt('with-text');
      const hidden = [min > 1 && this.say('min', { s: this.num(min) }), (wt === 'true' || wt === 'false') && this.t[wt === 'true' ? 'text' : 'notext']].filter(Boolean);
      if (hidden.length) parts.push(`${hidden.join('. ')} (${this.say('shown', { a: this.data.matched, b: this.data.rating.review_count })}).`);
    }
    if (!parts.length) return null;
    const note = h('p', { class: 'note', part: 'notice' }, parts.join(' '));
    note.style.minHeight = `${(this.phrases() + 1) * 1.4}em`;
    return note;
  }

  header(title, hiding) {
    this.hid = `h${++seq}`;
    return [h('h2', { id: this.hid, part: 'heading', class: 'one' }, title), h('p', { class: 'line' }, this.totals()), this.notes(hiding)].filter(Boolean);
  }

  date(iso) {
    return new Intl.DateTimeFormat(this.lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  }

  card(r, attrs) {
    const id = `r${r.id}`;
    return h(
      'article',
      { class: 'card', part: 'review', tabindex: '-1', 'aria-labelledby': id, ...attrs },
      h('h3', { id, class: 'one' }, r.author),
      h(
        'p',
        { class: 'meta' },
        this.stars(r.rating, this.say('stars', { n: r.rating })),
        h('a', { href: r.url }, h('time', { datetime: r.date }, this.date(r.date))),
        r.verified ? h('span', {}, this.t.mark) : null,
        h('span', { class: 'one' }, this.say('src', { s: sourceName(r.source, this.t) })),
      ),
      r.text ? h('p', { class: 'text' }, r.text) : h('p', { class: 'text muted' }, this.t.only),
    );
  }

  render() {
    const d = this.data;
    const l = this.layout;
    clearInterval(this.rotate);
    if (l === 'badge') {
      this.wrap.replaceChildren(h('a', { class: 'badge', part: 'badge', href: d.business.url }, this.totals(), this.scope().length ? h('span', { class: 'one' }, this.scope().join(', ')) : null));
      return;
    }
    const box = h('section', { class: 'box', part: 'box' });
    if (l === 'summary') this.summary(box);
    else if (l === 'carousel') this.carousel(box);
    else this.list(box);
    this.wrap.replaceChildren(box);
    if (l === 'summary' ? !d.rating.review_count : !d.reviews.length) this.shrink();
  }

  summary(box) {
    const d = this.data;
    const n = d.rating.review_count;
    const row = (label, pct, value, spoken, cls) => {
      const fill = h('span');
      fill.style.width = `${pct}%`;
      const said = h('span', { class: 'num' }, spoken ? [h('span', { 'aria-hidden': 'true' }, value), h('span', { class: 'sr' }, spoken)] : value);
      return h('li', { class: 'row', part: 'row' }, h('span', {}, label), h('span', { class: `bar ${cls}`, part: 'bar', 'aria-hidden': 'true' }, fill), said);
    };
    const pct = new Intl.NumberFormat(this.lang, { style: 'percent', maximumFractionDigits: 0 });
    box.append(
      ...this.header(this.t.summary, false),
      h('h3', { class: 'sub' }, this.say('reviews', { n })),
      h('ul', { part: 'histogram' }, [5, 4, 3, 2, 1].map((s) => row(this.say(s === 1 ? 'star' : 'starN', { n: s }), n ? (d.rating.distribution[s] / n) * 100 : 0, this.num(d.rating.distribution[s]), null, ''))),
    );
    if (d.mentions.length) {
      box.append(
        h('h3', { class: 'sub' }, this.t.mention),
        h(
          'ul',
          { part: 'mentions' },
          d.mentions.map((m) => {
            const spoken = `${this.say('positive', { p: m.positive_pct })}, ${this.say('of', { n: m.mention_count })}`;
            const li = row(m.label, m.positive_pct, pct.format(m.positive_pct / 100), spoken, 'pos');
            li.title = spoken;
            return li;
          }),
        ),
      );
    }
  }

  list(box) {
    const d = this.data;
    this.ul = h('ul', { part: 'list' }, d.reviews.map((r) => h('li', {}, this.card(r))));
    this.status = h('p', { class: 'sr', role: 'status' });
    this.cursor = d.next_cursor;
    this.more = h('button', { type: 'button', part: 'button' }, this.t.more);
    this.more.hidden = !this.cursor;
    this.more.addEventListener('click', () => this.next());
    box.append(
      ...this.header(this.t.title, true),
      d.reviews.length ? this.ul : h('p', { class: 'muted' }, this.t.none),
      h('div', { class: 'foot' }, this.more, h('a', { href: d.business.url, part: 'link' }, this.t.all)),
      this.status,
    );
    box.setAttribute('aria-labelledby', this.hid);
  }

  /** "More": the next page through the API's cursor; an old cursor (the data changed) starts the list again. */
  async next() {
    let res;
    try {
      res = await this.fetchData(this.cursor, false);
    } catch (e) {
      if (e.name !== 'AbortError') this.status.textContent = this.t.error;
      return;
    }
    if (res.status === 400) return this.load();
    if (!res.ok) return void (this.status.textContent = this.t.error);
    const page = await res.json();
    const items = page.reviews.map((r) => h('li', {}, this.card(r)));
    this.ul.append(...items);
    this.cursor = page.next_cursor;
    this.more.hidden = !this.cursor;
    this.status.textContent = this.say('shown', { a: this.ul.children.length, b: page.matched });
    items[0]?.firstChild.focus();
  }

  carousel(box) {
    const d = this.data;
    const t = this.t;
    const n = d.reviews.length;
    box.append(...this.header(t.title, true));
    box.setAttribute('aria-roledescription', 'carousel');
    box.setAttribute('aria-labelledby', this.hid);
    box.setAttribute('part', 'box carousel');
    if (!n) return box.append(h('p', { class: 'muted' }, t.none));
    const slides = d.reviews.map((r, i) => this.card(r, { role: 'group', 'aria-roledescription': 'slide', 'aria-label': this.say('slide', { i: i + 1, n }), part: 'review slide' }));
    const track = h('div', { class: 'slides', part: 'slides' }, slides);
    const reduce = matchMedia('(prefers-reduced-motion: reduce)');
    let at = 0;
    let stopped = reduce.matches || n < 2;
    let held = false;
    const show = (i) => {
      at = (i + n) % n;
      slides.forEach((s, k) => (s.hidden = k !== at));
    };
    const button = (label, text, go) => {
      const b = h('button', { type: 'button', 'aria-label': label, part: 'button' }, text);
      b.addEventListener('click', go);
      return b;
    };
    const toggle = button('', '', () => {
      stopped = !stopped;
      state();
    });
    const state = () => {
      toggle.setAttribute('aria-label', stopped ? t.play : t.pause);
      toggle.textContent = stopped ? '▶' : '❚❚';
      track.setAttribute('aria-live', stopped ? 'polite' : 'off');
    };
    const controls = h(
      'div',
      { class: 'ctrls' },
      button(t.prev, '‹', () => show(at - 1)),
      n > 1 ? toggle : null,
      button(t.next, '›', () => show(at + 1)),
    );
    // Rotation waits while the pointer is over the carousel or focus is in it, and never starts for reduced motion.
    box.addEventListener('pointerenter', () => (held = true));
    box.addEventListener('pointerleave', () => (held = false));
    box.addEventListener('focusin', () => (held = true));
    box.addEventListener('focusout', (e) => (held = box.contains(e.relatedTarget)));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        show(at + (e.key === 'ArrowLeft' ? -1 : 1));
      }
    });
    let x0 = null;
    track.addEventListener('pointerdown', (e) => (x0 = e.clientX));
    track.addEventListener('pointerup', (e) => {
      if (x0 !== null && Math.abs(e.clientX - x0) > 40) show(at + (e.clientX < x0 ? 1 : -1));
      x0 = null;
    });
    this.rotate = setInterval(() => {
      if (!stopped && !held && !reduce.matches) show(at + 1);
    }, 7000);
    show(0);
    state();
    box.append(track, controls);
  }
}

if (!customElements.get('reviewcast-reviews')) customElements.define('reviewcast-reviews', ReviewcastReviews);
