// Progressive enhancement of the review list: the filter form works without JavaScript (a GET
// to this page); with it, filters call the public search API, "Show more" follows its cursor,
// and the URL and history keep the state without reloading the page.
(() => {
  const form = document.querySelector('form.filters');
  const list = document.querySelector('#review-list');
  const status = document.querySelector('#review-status');
  const pager = document.querySelector('#pager');
  // What the answer says of a technician or service the profile does not know (matched as a word).
  const notices = document.querySelector('#review-notices');
  // What the URL asked for that could not be used ("?rating=9"): true of that URL only.
  const errors = document.querySelector('#review-errors');
  if (!form || !list || !status || !pager || !notices || !errors) return;
  const PAGE = 20;
  // A change waits this long for the next one: typing a date's year or stepping through a
  // select with the arrow keys is one search and one history entry, not one per step.
  const SETTLE_MS = 600;
  const business = list.dataset.business || '';
  // The same words and formats as the server-rendered page (src/pages/review-page.ts).
  const SORT_WORDS = { newest: 'newest first', oldest: 'oldest first', highest: 'highest rated first', lowest: 'lowest rated first' };
  const SOURCE_NAMES = { google: 'Google', yelp: 'Yelp', facebook: 'Facebook', website: 'this website', tripadvisor: 'Tripadvisor', trustpilot: 'Trustpilot', bbb: 'BBB', angi: 'Angi', houzz: 'Houzz', nextdoor: 'Nextdoor' };
  const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  const NUMBER = new Intl.NumberFormat('en-US');
  const API_NAMES = { technician: 'mentions_technician', service: 'mentions_service' };
  // What each filter is called on the page and what to put in it (FILTER_HELP in review-page.ts).
  const FILTER_HELP = {
    rating: ['Stars', 'choose 1 to 5 stars'],
    since: ['From', 'enter a date such as 2026-03-05'],
    until: ['To', 'enter a date such as 2026-03-05, not before From'],
    query: ['Text', 'enter up to 200 characters'],
    mentions_technician: ['Technician', 'choose a name from the list'],
    mentions_service: ['Service', 'choose a service from the list'],
    with_text: ['With text only', 'tick or clear the box'],
    with_reply: ['With owner reply', 'tick or clear the box'],
    sort: ['Sort', 'choose an order from the list'],
  };

  let inFlight = null;
  let timer = 0;
  // What the list shows now: its page parameters, the reviews shown and the cursor after them.
  let shownUrl = location.pathname + location.search;
  let state = null;

  const readableDate = (iso) => DATE.format(new Date(`${iso}T00:00:00Z`));
  const sourceName = (s) => SOURCE_NAMES[s] || s.charAt(0).toUpperCase() + s.slice(1);
  const stars = (n) => '★'.repeat(n) + '☆'.repeat(5 - n);
  const isFiltered = (p) => [...p.keys()].some((k) => k !== 'sort');

  /** The text with each case-insensitive occurrence of the searched text in <mark> (as the server marks it). */
  function highlighted(text, query) {
    const p = el('p');
    if (!query) {
      p.textContent = text;
      return p;
    }
    const parts = text.split(new RegExp(`(${query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'giu'));
    parts.forEach((part, i) => p.append(i % 2 ? el('mark', {}, part) : part));
    return p;
  }

  function statusText(matched, filtered, first, last, sort) {
    if (matched === 0) return filtered ? 'No reviews match these filters.' : 'No reviews yet.';
    return `${NUMBER.format(matched)} review${matched === 1 ? '' : 's'}${filtered ? ' match' : ''}; showing ${NUMBER.format(first)} to ${NUMBER.format(last)}, ${SORT_WORDS[sort] || SORT_WORDS.newest}.`;
  }

  /** The page's parameters from the form: empty fields and the default order left out. */
  function formParams() {
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form)) {
      if (typeof v !== 'string' || v.trim() === '' || (k === 'sort' && v === 'newest')) continue;
      p.set(k, v.trim());
    }
    return p;
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function card(r, query) {
    const li = el('li');
    const art = el('article', { class: 'review card', tabindex: '-1', 'aria-label': `Review by ${r.author}` });
    const head = el('header');
    head.append(el('span', { class: 'who' }, r.author));
    head.append(el('span', { class: 'stars', role: 'img', 'aria-label': `${r.rating} out of 5 stars` }, stars(r.rating)));
    const permalink = el('a', { href: new URL(r.url).pathname, title: 'Permalink' });
    permalink.append(el('time', { datetime: r.date }, readableDate(r.date)));
    head.append(permalink);
    if (r.verified) head.append(el('span', { class: 'badge verified' }, 'Verified'));
    head.append(r.source_url ? el('a', { href: r.source_url, rel: 'nofollow noopener' }, `on ${sourceName(r.source)}`) : el('span', { class: 'muted' }, `on ${sourceName(r.source)}`));
    art.append(head);
    art.append(r.text ? highlighted(r.text, query) : el('p', { class: 'muted' }, 'Rating only, no written review.'));
    if (r.owner_reply) {
      const reply = el('div', { class: 'reply' });
      reply.append(el('strong', {}, `Reply from ${business}`), ' ', el('time', { datetime: r.owner_reply.date }, readableDate(r.owner_reply.date)));
      reply.append(el('p', {}, r.owner_reply.text));
      art.append(reply);
    }
    li.append(art);
    return li;
  }

  /** One page of the search API; a newer request aborts the one before, so a late answer never overwrites a newer one. */
  async function fetchPage(p, cursor) {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const api = new URLSearchParams();
    for (const [k, v] of p) if (k !== 'page') api.set(API_NAMES[k] || k, v);
    api.set('limit', String(PAGE));
    if (cursor) api.set('cursor', cursor);
    const res = await fetch(`/api/reviews/search?${api}`, { headers: { accept: 'application/json' }, signal: controller.signal });
    const body = await res.json();
    if (inFlight === controller) inFlight = null;
    return { res, body };
  }

  /** The filters a 400's issues name, as the page words them ("Stars (choose 1 to 5 stars)"). */
  function named(body) {
    return [...new Set(body.issues.map((i) => FILTER_HELP[i.parameter]).filter(Boolean).map(([label, hint]) => `${label} (${hint})`))];
  }

  function problem(res, body) {
    if (res.status !== 400 || !body.issues) return 'Could not load reviews; please try again.';
    const names = named(body);
    return names.length ? `These filters could not be used: ${names.join('; ')}.` : 'These filters could not be used; please change or clear them.';
  }

  /** The alert the server-rendered page shows for filters it left out (review-page.ts), or none. */
  function drawErrors(left) {
    if (!left.length) {
      errors.replaceChildren();
      errors.hidden = true;
      return;
    }
    const alert = el('p', { class: 'card error', role: 'alert' }, `Some filters could not be used and were left out: ${left.join('; ')}. `);
    alert.append(el('a', { href: '/' }, 'Clear filters'));
    errors.replaceChildren(alert);
    errors.hidden = false;
  }

  function drawPager() {
    pager.replaceChildren();
    if (!state.cursor) return;
    const more = el('button', { type: 'button', class: 'secondary' }, 'Show more');
    more.addEventListener('click', () => showMore().catch(failed));
    pager.append(more);
  }

  function drawStatus() {
    status.textContent = statusText(state.matched, isFiltered(state.params), 1, state.shown, state.params.get('sort') || 'newest');
    const clear = document.querySelector('#clear-filters');
    if (clear) clear.hidden = !isFiltered(state.params);
  }

  function failed(e) {
    if (e?.name !== 'AbortError') status.textContent = 'Could not load reviews; please try again.';
  }

  /** Shows the first page for the form's state; `push` adds one history entry for it. */
  async function load(push) {
    clearTimeout(timer);
    timer = 0;
    const p = formParams();
    status.textContent = 'Loading…';
    let { res, body } = await fetchPage(p, null);
    // As the server-rendered page does (parsePageQuery): filters the search refuses ("From" after "To")
    // are named and left out, and the list is the answer to the rest, not the list before.
    let used = p;
    let left = [];
    if (res.status === 400 && body.issues) {
      const refused = new Set(body.issues.map((i) => Object.keys(API_NAMES).find((k) => API_NAMES[k] === i.parameter) || i.parameter));
      left = named(body);
      used = new URLSearchParams([...p].filter(([k]) => !refused.has(k)));
      ({ res, body } = await fetchPage(used, null));
    }
    if (!res.ok) {
      status.textContent = problem(res, body);
      return;
    }
    state = { params: used, matched: body.matched, shown: body.returned, cursor: body.next_cursor };
    notices.replaceChildren(...(body.notices ?? []).map((n) => el('p', { class: 'card notice' }, n.message)));
    notices.hidden = !body.notices?.length;
    drawErrors(left);
    list.replaceChildren(...body.reviews.map((r) => card(r, used.get('query'))));
    drawStatus();
    drawPager();
    const url = p.toString() ? `/?${p}` : '/';
    if (push && url !== location.pathname + location.search) history.pushState(null, '', url);
    shownUrl = url;
  }

  async function showMore() {
    const { res, body } = await fetchPage(state.params, state.cursor);
    if (!res.ok) {
      // The reviews changed since the first page (an import): start the list again.
      if (body.issues?.some((i) => i.code === 'invalid_cursor')) return load(false);
      status.textContent = problem(res, body);
      return;
    }
    const cards = body.reviews.map((r) => card(r, state.params.get('query')));
    list.append(...cards);
    state = { ...state, matched: body.matched, shown: state.shown + body.returned, cursor: body.next_cursor };
    drawStatus();
    drawPager();
    // Keyboard and screen-reader users carry on reading where the new reviews start.
    cards[0]?.querySelector('article')?.focus();
  }

  /** Back and Forward: the server draws the list for that URL; the form takes its values. No reload. */
  async function restore() {
    clearTimeout(timer);
    timer = 0;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    status.textContent = 'Loading…';
    const res = await fetch(location.pathname + location.search, { headers: { accept: 'text/html' }, signal: controller.signal });
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    if (inFlight === controller) inFlight = null;
    const take = (sel, into) => into.replaceChildren(...[...(doc.querySelector(sel)?.childNodes ?? [])].map((n) => document.importNode(n, true)));
    take('form.filters', form);
    take('#review-list', list);
    take('#pager', pager);
    take('#review-notices', notices);
    notices.hidden = notices.childElementCount === 0;
    take('#review-errors', errors);
    errors.hidden = errors.childElementCount === 0;
    status.textContent = doc.querySelector('#review-status')?.textContent ?? '';
    state = null;
    shownUrl = location.pathname + location.search;
  }

  function clearFilters(e) {
    e.preventDefault();
    for (const c of form.elements) {
      if (c.name === 'sort' || !c.name || c.tagName === 'BUTTON') continue;
      if (c.type === 'checkbox') c.checked = false;
      else c.value = '';
    }
    load(true).catch(failed);
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    load(true).catch(failed);
  });
  form.addEventListener('change', () => {
    clearTimeout(timer);
    timer = setTimeout(() => load(true).catch(failed), SETTLE_MS);
  });
  // Leaving a field with a change still waiting commits it at once.
  form.addEventListener('focusout', (e) => {
    if (timer && !form.contains(e.relatedTarget)) load(true).catch(failed);
  });
  // The link is redrawn on Back and Forward, so its clicks are caught on the form.
  form.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.id === 'clear-filters') clearFilters(e);
  });
  // A bar of the star histogram ("1 star") filters the list to that rating, and a chip of "What
  // people mention" searches for its phrase: both in place.
  const filterInPlace = (selector, field, valueOf) => {
    for (const link of document.querySelectorAll(selector)) {
      link.addEventListener('click', (e) => {
        const control = form.elements.namedItem(field);
        if (!control) return;
        e.preventDefault();
        control.value = valueOf(link);
        load(true).catch(failed);
        document.querySelector('#reviews')?.scrollIntoView();
      });
    }
  };
  filterInPlace('a[data-rating]', 'rating', (link) => link.dataset.rating);
  filterInPlace('a[data-query]', 'query', (link) => link.dataset.query);
  window.addEventListener('popstate', () => {
    // Only the fragment changed (the skip link, an #anchor): the list is already right.
    if (location.pathname + location.search === shownUrl) return;
    restore().catch(failed);
  });

  openNow();

  /** "Open now" or "Closed now" and the next change, from the hours in the business's time zone (the visitor's clock without one). */
  function openNow() {
    const out = document.querySelector('#open-now');
    if (!out) return;
    const rules = JSON.parse(out.dataset.hours || '[]');
    const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: out.dataset.timeZone || undefined, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(new Date())
        .map((x) => [x.type, x.value]),
    );
    const today = DAYS.indexOf(parts.weekday.toLowerCase());
    const now = Number(parts.hour) * 60 + Number(parts.minute);
    const mins = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
    // Every opening as [start, end) in minutes from this Monday 00:00, over two weeks so the next one is always found.
    const spans = [];
    for (let week = 0; week < 2; week++) {
      for (const r of rules) {
        for (const d of r.days) {
          const day = DAYS.indexOf(d) + week * 7;
          const opens = mins(r.opens);
          let closes = mins(r.closes);
          if (closes <= opens) closes += 24 * 60;
          spans.push([day * 1440 + opens, day * 1440 + closes]);
        }
      }
    }
    // Hours that ran past midnight into this Monday belong to last Sunday's opening.
    for (const [a, b] of spans.filter(([, b]) => b > 14 * 1440)) spans.push([a - 14 * 1440, b - 14 * 1440]);
    const t = today * 1440 + now;
    const current = spans.filter(([a, b]) => a <= t && t < b).sort((x, y) => y[1] - x[1])[0];
    const at = (m) => `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const dayName = (m) => { const d = DAYS[Math.floor(m / 1440) % 7]; return d.charAt(0).toUpperCase() + d.slice(1, 3); };
    if (current) {
      out.textContent = current[1] - current[0] >= 1440 ? 'Open now, all day' : `Open now, until ${at(current[1])}`;
      out.className = 'open';
    } else {
      const next = spans.filter(([a]) => a > t).sort((x, y) => x[0] - y[0])[0];
      out.textContent = next ? `Closed now, opens ${Math.floor(next[0] / 1440) === today ? '' : `${dayName(next[0])} `}${at(next[0])}` : 'Closed now';
      out.className = 'closed';
    }
  }
})();
