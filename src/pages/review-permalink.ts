/** The permalink page of one review, /reviews/{id}: the review, the owner's reply, the source link and JSON-LD for that one Review. */
import { reviewPermalink } from '../core/reviews.js';
import type { Business } from '../core/schema/business.js';
import type { Review } from '../core/schema/review.js';
import { html, jsonScript, type Html } from './html.js';
import { layout } from './layout.js';
import { FIRST_PARTY_SOURCE, reviewCard } from './review-page.js';

/**
 * schema.org Review of this one review, tied to the business the home page describes (`@id`
 * {BASE_URL}/#business). Only for a review written on this site: as on the list pages, a review
 * taken from Google, Yelp or another site is shown but never marked up as this site's own.
 */
function reviewJsonLd(r: Review, business: Business, baseUrl: string): unknown {
  const url = reviewPermalink(baseUrl, r.id);
  return {
    '@context': 'https://schema.org',
    '@type': 'Review',
    '@id': url,
    url,
    itemReviewed: { '@type': business.schema_org_type ?? 'LocalBusiness', '@id': `${baseUrl}/#business`, name: business.name },
    author: { '@type': 'Person', name: r.author },
    datePublished: r.date,
    ...(r.text ? { reviewBody: r.text } : {}),
    reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    ...(r.source_url ? { sameAs: r.source_url } : {}),
    ...(r.owner_reply
      ? { comment: { '@type': 'Comment', text: r.owner_reply.text, dateCreated: r.owner_reply.date, author: { '@type': 'Organization', name: business.name } } }
      : {}),
  };
}

export function renderReviewPermalink(r: Review, business: Business, baseUrl: string): Html {
  const body = html`<h1>Review by ${r.author}</h1>
<p class="muted">${r.rating} out of 5 stars for <a href="/">${business.name}</a>, ${r.date}.</p>
<ol class="reviews">${reviewCard(r, business)}</ol>
${
  r.source_url
    ? html`<p>Original review: <a href="${r.source_url}" rel="nofollow noopener">${r.source_url}</a></p>`
    : r.source === FIRST_PARTY_SOURCE
      ? html`<p class="muted">Written on this site: this page is where it is published.</p>`
      : html`<p class="muted">From ${r.source}, which gives it no public address of its own.</p>`
}
<p><a href="/">All reviews of ${business.name}</a></p>`;
  return layout(
    {
      title: `Review by ${r.author}: ${r.rating} of 5 stars for ${business.name}`,
      description: r.text ? r.text.slice(0, 160) : `${r.author} rated ${business.name} ${r.rating} out of 5.`,
      baseUrl,
      path: `/reviews/${r.id}`,
      business,
      head: r.source === FIRST_PARTY_SOURCE ? html`<script type="application/ld+json">${jsonScript(reviewJsonLd(r, business, baseUrl))}</script>` : undefined,
    },
    body,
  );
}

/** The page for a review id that is malformed (400) or names no review (404). */
export function renderReviewMissing(status: 400 | 404, id: string, business: Business, baseUrl: string): Html {
  const title = status === 400 ? 'Not a review id' : 'No such review';
  const why =
    status === 400
      ? html`<p>"${id}" is not a review id: ids are ULIDs, 26 characters of Crockford base32 (digits and capital letters without I, L, O, U).</p>`
      : html`<p>No review has the id ${id}. It may have been removed by the business.</p>`;
  return layout({ title: `${title}: ${business.name}`, description: title, baseUrl, path: '/reviews', business }, html`<h1>${title}</h1>${why}<p><a href="/">All reviews of ${business.name}</a></p>`);
}
