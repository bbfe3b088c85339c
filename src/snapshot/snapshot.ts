/** Everything served for one revision: data, search index and pre-built bodies. */
import { PLACEHOLDER_BUSINESS, reviewsDataset } from '../core/dataset.js';
import { aggregateRating, publishReview } from '../core/reviews.js';
import { buildReviewIndex, type ReviewIndex } from '../core/search.js';
import type { AggregateRating } from '../core/schema/dataset.js';
import type { Business } from '../core/schema/business.js';
import type { RevisionInfo, StoredData } from '../store/store.js';
import { Lru } from './lru.js';
import { buildRepresentation, type Representation } from './representation.js';

import { ATOM_CONTENT_TYPE, renderAtom } from '../core/feeds/atom.js';
import { renderJsonFeed } from '../core/feeds/jsonfeed.js';
import { buildInsights } from '../core/insights/build.js';
import { AnalysisCache } from '../core/insights/per-review.js';
import type { Insights } from '../core/schema/insights.js';
import type { TopicPath } from '../core/feeds/websub-topics.js';

/** JSON is UTF-8 by definition (RFC 8259), so no charset parameter: hub deliveries repeat this type byte for byte. */
const JSON_TYPE = 'application/json';

/**
 * Everything served for one revision: the data, the search index and the pre-rendered,
 * pre-compressed bodies. Immutable once built; a new revision builds a new snapshot.
 */
export class Snapshot {
  readonly revision: RevisionInfo;
  readonly business: Business;
  readonly index: ReviewIndex;
  readonly aggregate: AggregateRating;
  readonly lastModified: Date;
  /** Bodies computed on demand (searches, since-queries), keyed by canonical request. */
  private readonly derived = new Lru<string, Representation>(512);
  private insightsDoc: Insights | null = null;
  /** /reviews.json, the largest body, kept apart from the LRU so searches and pages never evict it. Built on first use: its review urls need BASE_URL. */
  private reviewsDoc: Representation | null = null;

  /**
   * `feedTag`: the installation's tagging entity for feed entry ids (see taggingEntity).
   * `analysisCache` carries per-review analyses from the previous snapshot, so only changed reviews are analysed again.
   */
  constructor(
    data: StoredData,
    readonly feedTag: string,
    private readonly analysisCache = new AnalysisCache(),
  ) {
    this.revision = data.revision;
    this.business = data.business ?? PLACEHOLDER_BUSINESS;
    this.index = buildReviewIndex(this.business, data.reviews, `${data.revision.revision}@${data.revision.updated_at}`);
    this.aggregate = aggregateRating(this.index.reviews);
    this.lastModified = new Date(data.revision.updated_at);
  }

  /** The insights document, built on first use and kept for this revision. */
  insights(): Insights {
    this.insightsDoc ??= buildInsights(this.business, this.index.reviews, this.revision.updated_at, this.analysisCache);
    return this.insightsDoc;
  }

  /** A document served many times per revision, compressed up front. */
  json(value: unknown): Representation {
    return buildRepresentation(JSON.stringify(value), JSON_TYPE, this.lastModified);
  }

  /** The answer to one query (a search, a date), compressed only if a client asks for it. */
  answer(value: unknown): Representation {
    return buildRepresentation(JSON.stringify(value), JSON_TYPE, this.lastModified, 'on-demand');
  }

  /** The body of a WebSub topic, as served and as delivered to subscribers. */
  topic(path: TopicPath, baseUrl: string): Representation {
    switch (path) {
      case '/reviews.json':
        this.reviewsDoc ??= this.json(reviewsDataset(this.business, this.index.reviews.map((r) => publishReview(r, baseUrl))));
        return this.reviewsDoc;
      case '/api/feed.json':
        return this.memo('topic:/api/feed.json', () => this.json(renderJsonFeed(this.business, this.index.reviews, baseUrl, this.feedTag)));
      case '/feed.xml':
        return this.memo('topic:/feed.xml', () =>
          buildRepresentation(renderAtom(this.business, this.index.reviews, baseUrl, this.feedTag, this.lastModified.toISOString()), ATOM_CONTENT_TYPE, this.lastModified),
        );
    }
  }

  /** A derived body, built once per snapshot and key. */
  memo(key: string, build: () => Representation): Representation {
    let rep = this.derived.get(key);
    if (rep === undefined) {
      rep = build();
      this.derived.set(key, rep);
    }
    return rep;
  }
}
