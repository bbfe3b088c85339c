/** Everything served for one revision: data, search index and pre-built bodies. */
import { PLACEHOLDER_BUSINESS } from '../core/dataset.js';
import { aggregateRating, shareRepeatedStrings } from '../core/reviews.js';
import { buildReviewIndex, reviewsSince, type ReviewIndex } from '../core/search.js';
import type { AggregateRating } from '../core/schema/dataset.js';
import type { Business } from '../core/schema/business.js';
import type { KeptStore, RevisionInfo, StoredData } from '../store/store.js';
import { BodyCaches, type BodyCache } from './body-cache.js';
import { buildRepresentation, gzipHeldRepresentation, type Coding, type HeldRepresentation, type Representation } from './representation.js';
import { gunzipWhole } from './compressor.js';
import { escapeAsJsonString, ReviewBytes } from './review-bytes.js';
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { BUILD_DIGEST } from './build-digest.js';
import { holdInsights, holdInsightsNow, keptInsights, readKeptInsights, type HeldInsights, type ReviewAspect } from './insights-bytes.js';

import { ATOM_CONTENT_TYPE, renderAtom } from '../core/feeds/atom.js';
import { renderJsonFeed } from '../core/feeds/jsonfeed.js';
import { buildInsights } from '../core/insights/build.js';
import { AnalysisCache, ReviewAnalyser } from '../core/insights/per-review.js';
import type { InsightsOverview, PerReview } from '../core/schema/insights.js';
import type { Review } from '../core/schema/review.js';
import type { SearchHits } from '../core/schema/search.js';
import type { TopicPath } from '../core/feeds/websub-topics.js';

/** JSON is UTF-8 by definition (RFC 8259), so no charset parameter: hub deliveries repeat this type byte for byte. */
const JSON_TYPE = 'application/json';

/** The name under which the store keeps something of a revision: made by this build, for this public origin. */
export const keptName = (what: string, baseUrl = ''): string => `${what}:${BUILD_DIGEST}:${baseUrl}`;

/**
 * The name of the kept insights document: it depends on this build's core and snapshot code (the
 * analyser, its model, how the document is written), so one kept by another build is not used.
 */
export const INSIGHTS_KEPT = keptName('/insights.json');

/** The name of a document's kept coding; `variant` names what else its bytes depend on (a feed's tagging entity). */
const codingName = (path: KeptDocument, coding: Coding, baseUrl = '', variant = ''): string => keptName(`${path} ${coding}${variant && ` ${variant}`}`, baseUrl);

/** Reviews analysed per turn of the event loop while a snapshot is prepared: about 10 ms of work. */
const ANALYSE_CHUNK = 200;

/** Where a search answer's reviews go in its outline, and what separates them. */
const EMPTY_REVIEWS = Buffer.from('"reviews":[]');
const COMMA = Buffer.from(',');

/** The end of every `since` answer, after its reviews. */
const SINCE_TAIL = Buffer.from(']}');

/** Lets the event loop run (requests, /healthz) between steps of preparing a snapshot. */
const pause = (): Promise<void> => yieldToLoop();

/** Reviews analysed between two looks at whether another process kept the insights first (analyseAndKeep's `stopIf`). */
const STOP_CHECK_EVERY = 5000;

/**
 * Analyses a revision's reviews (sorted newest first, as a snapshot holds them) into its insights
 * document and keeps it in the store for that revision (keptInsights). A snapshot
 * does this when nothing is kept for its revision; an import does it for the revision it made.
 * `stopIf` is asked every few thousand reviews: when it says so (another process kept them
 * first, or the data moved on) the work stops and nothing is kept (null).
 */
export async function analyseAndKeep(
  store: KeptStore,
  data: { business: Business; reviews: readonly Review[]; revision: RevisionInfo },
  cache: AnalysisCache,
  opts: { onProgress?: (analysed: number, total: number) => void; stopIf?: () => Promise<boolean> } = {},
): Promise<HeldInsights | null> {
  const { business, reviews, revision } = data;
  const analyser = new ReviewAnalyser(business);
  for (let from = 0; from < reviews.length; from += ANALYSE_CHUNK) {
    if (opts.stopIf && from % STOP_CHECK_EVERY === 0 && from > 0 && (await opts.stopIf())) return null;
    const to = Math.min(reviews.length, from + ANALYSE_CHUNK);
    for (let i = from; i < to; i++) cache.get(analyser, reviews[i]!);
    opts.onProgress?.(to, reviews.length);
    await pause();
  }
  const held = await holdInsights(buildInsights(business, reviews, revision.updated_at, cache), pause);
  await store.saveKept(revision.revision, INSIGHTS_KEPT, keptInsights(held));
  return held;
}

/** Distinguishes the cache keys of the snapshots of one process. */
let snapshotCount = 0;

/** The JSON documents an MCP client can read as resources. */
export type ResourceDocument = '/reviews.json' | '/insights.json';

/** The documents whose compressed forms the store keeps per revision. */
type KeptDocument = ResourceDocument | TopicPath;

/** The feeds: small, but brotli at its best quality cost a restart ~60 ms for both. */
const FEEDS = ['/api/feed.json', '/feed.xml'] as const;
/** What prepareDocuments does, in order, as a person watching it reads it. */
export const DOCUMENT_STEPS = ['search index', 'published reviews', ...FEEDS.map((f) => `${f} compressed`), '/reviews.json compressed', '/insights.json compressed'];

/**
 * Everything served for one revision: the data, the search index and the pre-rendered,
 * pre-compressed bodies. Immutable once built; a new revision builds a new snapshot. Bodies are
 * kept in the process's byte-bounded caches (`BodyCaches`), documents and answers apart.
 */
export class Snapshot {
  readonly revision: RevisionInfo;
  readonly business: Business;
  readonly index: ReviewIndex;
  readonly aggregate: AggregateRating;
  readonly lastModified: Date;
  /** Per review id, when an import last changed it: the feeds' entry times. */
  private readonly modified: ReadonlyMap<string, string>;
  private readonly id = ++snapshotCount;
  /** The insights as held (HeldInsights), made or loaded once per revision. */
  private held: HeldInsights | null = null;
  /** Analyses single reviews for readers of one review's analysis (analysisOf), made on first use. */
  private reviewAnalyser: ReviewAnalyser | null = null;
  /** The published reviews serialised once (for one public origin): /reviews.json and every date answer are made of them. */
  private reviewBytes: ReviewBytes | null = null;
  /** The large documents' compressed forms loaded from the store, until each document's representation takes them. */
  private readonly keptCodings = new Map<KeptDocument, Partial<Record<Coding, Buffer>>>();
  /** Each review's position by id, made once: permalinks, MCP reads, subscriptions and the insights look reviews up by id. */
  private positions: Map<string, number> | null = null;
  /**
   * The documents this revision serves to everyone (the topics and /insights.json), made once
   * and held with the snapshot rather than in the byte-bounded cache: they are what a revision
   * is, and a cache too small for them (1M reviews make a 644 MB /reviews.json) had each request
   * build and compress one again.
   */
  private readonly served = new Map<string, Representation>();
  /** Escaped documents being made, so concurrent MCP reads share the work. */
  private readonly escaping = new Map<string, Promise<Buffer>>();

  /**
   * `feedTag`: the installation's tagging entity for feed entry ids (see taggingEntity).
   * `analysisCache` carries per-review analyses from the previous snapshot, so only changed reviews are analysed again.
   */
  constructor(
    data: StoredData,
    readonly feedTag: string,
    private readonly analysisCache = new AnalysisCache(),
    private readonly caches = new BodyCaches(),
  ) {
    this.revision = data.revision;
    this.business = data.business ?? PLACEHOLDER_BUSINESS;
    shareRepeatedStrings(data.reviews);
    this.index = buildReviewIndex(this.business, data.reviews, `${data.revision.revision}@${data.revision.updated_at}`);
    this.aggregate = aggregateRating(this.index.reviews);
    this.lastModified = new Date(data.revision.updated_at);
    this.modified = data.modified;
  }

  /**
   * Makes the insights before the snapshot is served. When the store keeps them for this
   * revision and analyser they are loaded ('loaded'); otherwise each review not analysed before
   * is analysed, a chunk at a time with the event loop free in between, and the document is kept
   * in the store for a restart or another replica ('analysed'). `opts` as for analyseAndKeep:
   * an analysis told to stop keeps nothing ('stopped').
   */
  async prepareInsights(store: KeptStore, opts: Parameters<typeof analyseAndKeep>[3] = {}): Promise<'loaded' | 'analysed' | 'stopped'> {
    const revision = this.revision.revision;
    const [kept, br] = await Promise.all([INSIGHTS_KEPT, codingName('/insights.json', 'br')].map((name) => store.loadKept(revision, name)));
    const held = kept && readKeptInsights(kept, this.index.reviews.length);
    if (held) {
      if (br) this.keptCodings.set('/insights.json', { br });
      this.held = held;
      return 'loaded';
    }
    const made = await analyseAndKeep(store, { business: this.business, reviews: this.index.reviews, revision: this.revision }, this.analysisCache, opts);
    if (!made) return 'stopped';
    this.held = made;
    return 'analysed';
  }

  /**
   * Builds before the snapshot is served what its readers would otherwise build on first use,
   * a step at a time with the event loop free in between: the search filters of the roster, the
   * published reviews' bytes (/reviews.json and every `since` answer) and their compressed forms,
   * the feeds and the insights document. The search index's prepared parts, the published bytes
   * and their compressed forms are kept in the store for this revision, build (and origin), so a
   * restart reads them instead. `onStep` is told how many of DOCUMENT_STEPS (of unlike size) are
   * done as each starts, and when all are (a CLI's progress).
   */
  async prepareDocuments(baseUrl: string, store: KeptStore, onStep: (done: number) => void = () => {}): Promise<void> {
    let done = 0;
    const step = () => onStep(done++);
    step();
    const searchName = keptName('search index');
    if (await this.index.prepare(pause, await store.loadKept(this.revision.revision, searchName))) {
      await store.saveKept(this.revision.revision, searchName, this.index.preparedBytes());
    }
    step();
    if (this.reviewBytes?.baseUrl !== baseUrl) {
      this.reviewBytes = (await this.keptReviewBytes(baseUrl, store)) ?? (await ReviewBytes.make(this.business, this.aggregate, this.index.reviews, baseUrl, pause));
    }
    const reviewsKept = { ...this.keptCodings.get('/reviews.json') };
    const dataset = this.topic('/reviews.json', baseUrl);
    await pause();
    for (const path of FEEDS) {
      step();
      const [gzip, br] = await Promise.all((['gzip', 'br'] as const).map((coding) => store.loadKept(this.revision.revision, codingName(path, coding, baseUrl, this.feedTag))));
      const kept = { ...(gzip && { gzip }), ...(br && { br }) };
      this.keptCodings.set(path, kept);
      await this.encodeAndKeep(store, this.topic(path, baseUrl), path, baseUrl, ['gzip', 'br'], kept, this.feedTag);
      await pause();
    }
    step();
    await this.encodeAndKeep(store, dataset, '/reviews.json', baseUrl, ['gzip', 'br'], reviewsKept);
    if (!this.reviewBytes.etag) await store.saveKept(this.revision.revision, keptName('/reviews.json index', baseUrl), this.reviewBytes.index(dataset.etag));
    // About 0.1 s at 100k reviews: made here, not by the first permalink or get_review.
    this.idPositions();
    step();
    // The MCP resources (escaped copies of the two largest documents) are made on their first
    // read, a megabyte at a time: made ahead they doubled what a start costs and holds.
    const insightsKept = { ...this.keptCodings.get('/insights.json') };
    await this.encodeAndKeep(store, this.insightsDocument(), '/insights.json', '', ['br'], insightsKept);
    step();
  }

  /**
   * Makes a document's codings (off the event loop), so the revision is served once they are and
   * no first visitor waits for them, and keeps in the store those not loaded from it (`kept`).
   */
  private async encodeAndKeep(store: KeptStore, rep: Representation, path: KeptDocument, baseUrl: string, codings: readonly Coding[], kept: Partial<Record<Coding, Buffer>>, variant = ''): Promise<void> {
    for (const coding of codings) {
      await rep.encode(coding);
      const made = rep.coded(coding);
      if (made && made !== kept[coding]) await store.saveKept(this.revision.revision, codingName(path, coding, baseUrl, variant), made);
    }
  }

  /** The codings of a large document loaded from the store, handed once to its representation. */
  private takeCodings(path: KeptDocument): Partial<Record<Coding, Buffer>> {
    const codings = this.keptCodings.get(path) ?? {};
    this.keptCodings.delete(path);
    return codings;
  }

  /** The review with this id, if this revision has it. */
  review(id: string): Review | undefined {
    const i = this.positionOf(id);
    return i === undefined ? undefined : this.index.reviews[i];
  }

  private positionOf(id: string): number | undefined {
    return this.idPositions().get(id);
  }

  private idPositions(): Map<string, number> {
    if (!this.positions) {
      const positions = new Map<string, number>();
      this.index.reviews.forEach((r, i) => positions.set(r.id, i));
      this.positions = positions;
    }
    return this.positions;
  }

  /** The insights document but per_review (see analysisOf), made on first use unless prepareInsights made it. */
  insights(): InsightsOverview {
    return this.heldInsights().overview;
  }

  /** The analyser of single reviews for this revision's business profile. */
  analyser(): ReviewAnalyser {
    this.reviewAnalyser ??= new ReviewAnalyser(this.business);
    return this.reviewAnalyser;
  }

  /**
   * The insights document's analysis of one review (its per_review entry), made again: the
   * analysis is deterministic and the document was made by this build (INSIGHTS_KEPT), so it is
   * the entry, without 46 MB of them held at 100k reviews.
   */
  analysisOf(id: string): PerReview | undefined {
    const review = this.review(id);
    return review && this.analyser().analyse(review).per;
  }

  /** The aspects of a review and their polarity as the insights counted them (per_review's, less the phrases), without analysing it again. */
  aspectsOf(id: string): ReviewAspect[] {
    const i = this.positionOf(id);
    return i === undefined ? [] : this.heldInsights().hits.at(i);
  }

  private heldInsights(): HeldInsights {
    this.held ??= holdInsightsNow(buildInsights(this.business, this.index.reviews, this.revision.updated_at, this.analysisCache));
    return this.held;
  }

  /** The published reviews' bytes as kept in the store (the gzip coding and its index), with the brotli coding if kept; null when not kept or not whole. */
  private async keptReviewBytes(baseUrl: string, store: KeptStore): Promise<ReviewBytes | null> {
    const revision = this.revision.revision;
    const [gzip, index, br] = await Promise.all([codingName('/reviews.json', 'gzip', baseUrl), keptName('/reviews.json index', baseUrl), codingName('/reviews.json', 'br', baseUrl)].map((name) => store.loadKept(revision, name)));
    if (!gzip || !index) return null;
    const bytes = ReviewBytes.fromKept(await gunzipWhole(gzip), index, this.index.reviews.length, baseUrl);
    if (bytes) this.keptCodings.set('/reviews.json', br ? { gzip, br } : { gzip });
    return bytes;
  }

  /** A document served many times per revision, compressed up front. */
  json(value: unknown): Representation {
    return buildRepresentation(JSON.stringify(value), JSON_TYPE, this.lastModified);
  }

  /** The answer to one query (a search, a date), compressed only if a client asks for it. */
  answer(value: unknown): Representation {
    return buildRepresentation(JSON.stringify(value), JSON_TYPE, this.lastModified, 'on-demand');
  }

  private publishedBytes(baseUrl: string): ReviewBytes {
    // One public origin per process; the check only matters before the server knows its own address.
    if (this.reviewBytes?.baseUrl !== baseUrl) this.reviewBytes = ReviewBytes.build(this.business, this.aggregate, this.index.reviews, baseUrl);
    return this.reviewBytes;
  }

  /** The body of a WebSub topic, as served and as delivered to subscribers. */
  topic(path: TopicPath, baseUrl: string): HeldRepresentation {
    switch (path) {
      case '/reviews.json':
        return this.hold(`topic:/reviews.json:${baseUrl}`, () => {
          const bytes = this.publishedBytes(baseUrl);
          const codings = this.takeCodings('/reviews.json');
          // Kept codings belong to kept bytes; bytes made again (another origin) are compressed again.
          return buildRepresentation(bytes.dataset, JSON_TYPE, this.lastModified, 'now', bytes.etag, bytes.etag ? codings : {});
        });
      case '/api/feed.json':
        return this.hold('topic:/api/feed.json', () =>
          buildRepresentation(JSON.stringify(renderJsonFeed(this.business, this.index.reviews, baseUrl, this.feedTag, this.modified)), JSON_TYPE, this.lastModified, 'now', undefined, this.takeCodings(path)),
        );
      case '/feed.xml':
        return this.hold('topic:/feed.xml', () =>
          buildRepresentation(renderAtom(this.business, this.index.reviews, baseUrl, this.feedTag, this.lastModified.toISOString(), this.modified), ATOM_CONTENT_TYPE, this.lastModified, 'now', undefined, this.takeCodings(path)),
        );
    }
  }

  /** /insights.json as served: held as its gzip form (the snapshot holds the same buffer), identity streamed from it. */
  insightsDocument(): Representation {
    return this.hold('insights', () => {
      const { gzip, size, etag } = this.heldInsights();
      return gzipHeldRepresentation(gzip, size, etag, JSON_TYPE, this.lastModified, this.takeCodings('/insights.json').br);
    });
  }

  /**
   * A search's answer, the same bytes as JSON.stringify of its published hits: each review's JSON
   * is copied from the published reviews' bytes instead of being serialised again (at 100k
   * reviews that and the ETag's hash were a third of a search's cost). The ETag hashes what
   * the body is made of: the revision, build and origin the reviews' bytes come from, the rest
   * of the answer and which reviews.
   */
  searchAnswer(hits: SearchHits, baseUrl: string): Representation {
    const bytes = this.publishedBytes(baseUrl);
    // A key in quotes followed by [] cannot occur inside a JSON string (its quotes would be escaped).
    const outline = Buffer.from(JSON.stringify({ ...hits, reviews: [] }));
    const at = outline.indexOf(EMPTY_REVIEWS) + EMPTY_REVIEWS.length - 1;
    const positions = Float64Array.from(hits.reviews, (r) => this.positionOf(r.id)!);
    const parts: Buffer[] = [outline.subarray(0, at)];
    positions.forEach((i, k) => parts.push(...(k === 0 ? [] : [COMMA]), bytes.review(i)));
    parts.push(outline.subarray(at));
    const body = Buffer.concat(parts);
    // What the reviews' bytes are made from (revision, build, origin), not their hash: hashing 53 MB, or rebuilding an evicted /reviews.json, is no search's job.
    const etag = createHash('sha256').update(`${this.index.fingerprint()}|${BUILD_DIGEST}|${baseUrl}|`).update(outline).update(positions).digest('base64url').slice(0, 27);
    return buildRepresentation(body, JSON_TYPE, this.lastModified, 'on-demand', etag);
  }

  /**
   * The answer of /api/reviews/since/{date}: `{ since, count, reviews }` cut from the reviews
   * serialised once: a head, a view of those bytes and a tail, sent as they are without joining
   * them, so an answer costs its head and tail (and the codings a client asks for); its ETag hashes what the body is
   * made of, so it stays the same while those reviews do.
   */
  since(date: string, baseUrl: string): HeldRepresentation {
    return this.memoAnswer(`since:${date}:${baseUrl}`, () => {
      const bytes = this.publishedBytes(baseUrl);
      const count = reviewsSince(this.index, date).length;
      const head = Buffer.from(`{"since":${JSON.stringify(date)},"count":${count},"reviews":[`);
      const parts = [head, bytes.first(count), SINCE_TAIL];
      const etag = createHash('sha256').update(head).update(bytes.digestOfFirst(count)).digest('base64url').slice(0, 27);
      return buildRepresentation({ parts, owned: head.length + SINCE_TAIL.length }, JSON_TYPE, this.lastModified, 'on-demand', etag);
    });
  }

  /**
   * A resource document as the JSON string an MCP `resources/read` result holds, escaped once
   * per revision (a megabyte at a time, the event loop free in between) and kept with the documents.
   */
  async escapedDocument(path: ResourceDocument, baseUrl: string): Promise<Buffer> {
    const key = this.key(`escaped:${path}:${baseUrl}`);
    const kept = this.caches.documents.get(key);
    if (Buffer.isBuffer(kept)) return kept;
    let making = this.escaping.get(key);
    if (!making) {
      const identity = path === '/reviews.json' ? Promise.resolve(this.topic(path, baseUrl).identity) : gunzipWhole(this.heldInsights().gzip);
      making = identity.then(escapeAsJsonString).finally(() => this.escaping.delete(key));
      this.escaping.set(key, making);
    }
    const escaped = await making;
    this.caches.documents.set(key, escaped);
    return escaped;
  }

  /** Lets go of this snapshot's bodies in the shared caches: it is served no more (a request still finishing keeps its own). */
  release(): void {
    this.caches.forget(this.key(''));
    // Whatever still holds this snapshot (a request finishing keeps its own body) does not keep its documents too.
    this.served.clear();
  }

  /** Bytes of the documents this revision holds for every reader (`served`: bodies and compressed forms), which the caches' figures leave out. */
  get heldBytes(): number {
    let bytes = 0;
    for (const rep of this.served.values()) bytes += rep.bytes;
    return bytes;
  }

  /** A document every reader is served, built once per snapshot (see `served`). */
  private hold<R extends Representation>(key: string, build: () => R): R {
    let rep = this.served.get(key) as R | undefined;
    if (!rep) this.served.set(key, (rep = build()));
    return rep;
  }

  /** A document, built once per snapshot and key while the documents' budget keeps it. */
  memo<R extends Representation>(key: string, build: () => R): R {
    return this.cached(this.caches.documents, key, build);
  }

  /** An answer to one request (a date, a page of a query), kept while the answers' budget allows. */
  memoAnswer<R extends Representation>(key: string, build: () => R): R {
    return this.cached(this.caches.answers, key, build);
  }

  private key(key: string): string {
    return `${this.id}:${key}`;
  }

  private cached<R extends Representation>(cache: BodyCache, name: string, build: () => R): R {
    const key = this.key(name);
    const kept = cache.get(key);
    // One key, one kind of body: what was cached under it is what `build` makes.
    if (kept !== undefined && typeof kept === 'object' && !Buffer.isBuffer(kept)) return kept as R;
    const rep = build();
    cache.set(key, rep);
    // Its compressed forms arrive later and count against the budget too.
    rep.onGrow(() => cache.recount(key, rep));
    return rep;
  }
}
