// Progressive enhancement of the review list: the filter form works without JavaScript (a GET
// to this page); with it, filters call the public search API, "Show more" follows its cursor,
// and the URL and history keep the state without reloading the page.
(() => {
  const form = document.querySelector('form.filters');
  const list = document.querySelector('#review-list');
  const status = document.querySelector('#review-status');
  const pager = document.querySelector('#pager');
  if (!form || !list || !status || !pager) return;
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

  let inFlight = null;
  let timer = 0;
  // What the list shows now: its page parameters, the reviews shown and the cursor after them.
  let shownUrl = location.pathname + location.search;
  let state = null;

  const readableDate = (iso) => DATE.format(new Date(`${iso}T00:00:00Z`));
  const sourceName = (s) => SOURCE_NAMES[s] || s.charAt(0).toUpperCase() + s.slice(1);
  const stars = (n) => '★'.repeat(n) + '☆'.repeat(5 - n);
  const isFiltered = (p) => [...p.keys()].some((k) => k !== 'sort');

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

  function card(r) {
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
    art.append(el('p', r.text ? {} : { class: 'muted' }, r.text ?? 'Rating only, no written review.'));
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

  function problem(res, body) {
    return res.status === 400 && body.issues ? `Please check the filters: ${body.issues.map((i) => i.message).join('; ')}` : 'Could not load reviews; please try again.';
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
    const { res, body } = await fetchPage(p, null);
    if (!res.ok) {
      status.textContent = problem(res, body);
      return;
    }
    state = { params: p, matched: body.matched, shown: body.returned, cursor: body.next_cursor };
    list.replaceChildren(...body.reviews.map(card));
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
    const cards = body.reviews.map(card);
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
  // A bar of the star histogram ("1 star") filters the list to that rating in place.
  for (const bar of document.querySelectorAll('a[data-rating]')) {
    bar.addEventListener('click', (e) => {
      const select = form.elements.namedItem('rating');
      if (!select) return;
      e.preventDefault();
      select.value = bar.dataset.rating;
      load(true).catch(failed);
      document.querySelector('#reviews')?.scrollIntoView();
    });
  }
  window.addEventListener('popstate', () => {
    // Only the fragment changed (the skip link, an #anchor): the list is already right.
    if (location.pathname + location.search === shownUrl) return;
    restore().catch(failed);
  });
})();
