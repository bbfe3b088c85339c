// Progressive enhancement of the review list: the filter form works without JavaScript (a GET
// to this page); with it, filters call the public search API and the URL keeps their state.
(() => {
  const form = document.querySelector('form.filters');
  const list = document.querySelector('#review-list');
  const status = document.querySelector('#review-status');
  const pager = document.querySelector('#pager');
  if (!form || !list || !status) return;
  const PAGE = 20;
  const MAX = 100;
  let limit = PAGE;
  const stars = (n) => '★'.repeat(n) + '☆'.repeat(5 - n);

  function params() {
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v.trim() !== '') p.set(k, v.trim());
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
    const art = el('article', { class: 'review card', 'aria-label': `Review by ${r.author}` });
    const head = el('header');
    head.append(el('span', { class: 'who' }, r.author));
    const s = el('span', { class: 'stars', role: 'img', 'aria-label': `${r.rating} out of 5 stars` }, stars(r.rating));
    head.append(s, el('time', { datetime: r.date }, r.date));
    if (r.verified) head.append(el('span', { class: 'badge verified' }, 'Verified'));
    const src = r.source_url ? el('a', { href: r.source_url, rel: 'nofollow noopener' }, `on ${r.source}`) : el('span', { class: 'muted' }, `via ${r.source}`);
    head.append(src);
    art.append(head);
    art.append(el('p', r.text ? {} : { class: 'muted' }, r.text ?? 'Rating only, no written review.'));
    if (r.owner_reply) {
      const reply = el('div', { class: 'reply' });
      reply.append(el('strong', {}, 'Reply from the owner '), el('time', { datetime: r.owner_reply.date }, r.owner_reply.date));
      reply.append(el('p', {}, r.owner_reply.text));
      art.append(reply);
    }
    li.append(art);
    return li;
  }

  async function load(push) {
    const p = params();
    p.delete('page');
    const api = new URLSearchParams(p);
    for (const [from, to] of [['technician', 'mentions_technician'], ['service', 'mentions_service']]) {
      if (api.has(from)) {
        api.set(to, api.get(from));
        api.delete(from);
      }
    }
    api.set('limit', String(limit));
    status.textContent = 'Loading…';
    const res = await fetch(`/api/reviews/search?${api}`, { headers: { accept: 'application/json' } });
    const body = await res.json();
    if (!res.ok) {
      status.textContent = `Please check the filters: ${(body.issues || []).map((i) => i.message).join('; ')}`;
      return;
    }
    list.replaceChildren(...body.reviews.map(card));
    status.textContent = `${body.matched} review${body.matched === 1 ? '' : 's'} match; showing ${body.returned}.`;
    if (pager) {
      pager.replaceChildren();
      if (body.matched > body.returned && limit < MAX) {
        const more = el('button', { type: 'button', class: 'secondary' }, 'Show more');
        more.addEventListener('click', () => {
          limit = Math.min(MAX, limit + PAGE);
          load(false);
        });
        pager.append(more);
      }
    }
    const url = p.toString() ? `/?${p}` : '/';
    if (push) history.pushState(null, '', url);
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    limit = PAGE;
    load(true).catch(() => (status.textContent = 'Could not load reviews; please try again.'));
  });
  form.addEventListener('change', () => form.requestSubmit());
  window.addEventListener('popstate', () => window.location.reload());
})();
