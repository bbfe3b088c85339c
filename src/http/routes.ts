import { reviewsSince, searchReviews } from '../core/search.js';
import { ReviewsDatasetSchema } from '../core/schema/dataset.js';
import { ErrorBodySchema } from '../core/schema/error.js';
import { SearchQuerySchema, SearchResultSchema, SincePathSchema, SinceResultSchema, type SinceResult } from '../core/schema/search.js';
import { sendRepresentation } from './conditional.js';
import { sendError } from './errors.js';
import { buildOpenApi } from './openapi.js';
import type { Operation } from './route-table.js';
import { validateParams } from './validation.js';

const validationError = { description: 'Invalid parameters: the body lists each problem in `issues`', schema: ErrorBodySchema };
const searchParams = Object.keys(SearchQuerySchema.shape);

/** Every endpoint of the service, top to bottom. The OpenAPI document is generated from this table. */
export const operations: Operation[] = [
  {
    method: 'GET',
    path: '/reviews.json',
    operationId: 'getReviewsDataset',
    tag: 'Datasets',
    summary: 'Full reviews dataset',
    description: 'The business profile, the aggregate rating and every published review, newest first. A WebSub topic.',
    conditional: true,
    responses: { '200': { description: 'The dataset', schema: ReviewsDatasetSchema } },
    handler: (req, reply, { live }) => sendRepresentation(req, reply, live.current().reviewsJson),
  },
  {
    method: 'GET',
    path: '/api/reviews/search',
    operationId: 'searchReviews',
    tag: 'Reviews',
    summary: 'Search reviews',
    description:
      'Filters given together all apply. `query` is a case-insensitive substring of the review text; `mentions_technician` matches a technician name or alias as a whole word; `mentions_service` matches a service id, label or alias. Results are newest first; `matched` counts every match, `returned` what `limit` let through. The MCP tool search_reviews takes the same arguments.',
    query: SearchQuerySchema,
    conditional: true,
    responses: { '200': { description: 'Matching reviews', schema: SearchResultSchema }, '400': validationError },
    handler: (req, reply, { live }) => {
      const v = validateParams(SearchQuerySchema, req.query as Record<string, unknown>, searchParams);
      if (!v.ok) return sendError(reply, 'validation_error', 'Invalid query parameters', v.issues);
      const snap = live.current();
      const rep = snap.memo(`search:${JSON.stringify(v.value)}`, () => snap.json(searchReviews(snap.index, v.value)));
      return sendRepresentation(req, reply, rep);
    },
  },
  {
    method: 'GET',
    path: '/api/reviews/since/{date}',
    operationId: 'getReviewsSince',
    tag: 'Reviews',
    summary: 'Reviews on or after a date',
    description: 'Every review dated on or after `date`, newest first. Poll it with If-None-Match to fetch only when something changed.',
    params: SincePathSchema,
    conditional: true,
    responses: { '200': { description: 'Reviews since the date', schema: SinceResultSchema }, '400': validationError },
    handler: (req, reply, { live }) => {
      const v = validateParams(SincePathSchema, req.params as Record<string, unknown>, ['date']);
      if (!v.ok) return sendError(reply, 'validation_error', 'Invalid path parameter', v.issues);
      const snap = live.current();
      const rep = snap.memo(`since:${v.value.date}`, () => {
        const reviews = reviewsSince(snap.index, v.value.date);
        const body: SinceResult = { since: v.value.date, count: reviews.length, reviews };
        return snap.json(body);
      });
      return sendRepresentation(req, reply, rep);
    },
  },
  {
    method: 'GET',
    path: '/.well-known/openapi.json',
    operationId: 'getOpenApi',
    tag: 'Service',
    summary: 'This API description (OpenAPI 3.1.0)',
    description: 'Generated from the same schemas the endpoints validate with.',
    conditional: true,
    responses: { '200': { description: 'OpenAPI 3.1.0 document', contentType: 'application/json' } },
    handler: (req, reply, { live, baseUrl }) => {
      const snap = live.current();
      // The document does not depend on the data, but caching it per snapshot keeps one code path.
      const rep = snap.memo('openapi', () => snap.json(buildOpenApi(operations, baseUrl)));
      return sendRepresentation(req, reply, rep, { cacheControl: 'public, max-age=300' });
    },
  },
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Service',
    summary: 'Liveness and data revision',
    description: 'Answers 200 while the service runs, with the revision of the data it serves.',
    responses: { '200': { description: 'Healthy', contentType: 'application/json' } },
    handler: (_req, reply, { live }) => {
      const snap = live.current();
      return reply
        .header('cache-control', 'no-store')
        .send({ status: 'ok', revision: snap.revision.revision, reviews: snap.index.reviews.length, updated_at: snap.revision.updated_at });
    },
  },
];
