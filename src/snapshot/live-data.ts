/** The current snapshot, rebuilt when the store's revision moves. */
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { failureEpisodes } from '../logger.js';
import { AnalysisCache } from '../core/insights/per-review.js';
import { taggingEntity } from '../core/feeds/websub-topics.js';
import type { KeptStore, ReviewStore, SettingsStore } from '../store/store.js';
import { BodyCaches } from './body-cache.js';
import { Snapshot } from './snapshot.js';

/**
 * The installation's tagging entity for feed entry ids, from the public origin and today's date:
 * chosen by the first start (or an import given BASE_URL) and kept, so entry ids do not change on
 * a restart or a move.
 */
export function installationFeedTag(store: SettingsStore, origin: string): Promise<string> {
  return store.getOrCreateSetting('feed_tag_entity', () => taggingEntity(origin, new Date().toISOString().slice(0, 10)));
}

export interface LiveDataEvents {
  snapshot: [next: Snapshot, previous: Snapshot];
}

/**
 * Keeps the current snapshot in step with the store. Other processes (the CLI, other
 * replicas) change the data, so the store's revision is polled; a new revision builds a new
 * snapshot, and listeners (hub distribution) hear of it.
 */
export class LiveData extends EventEmitter<LiveDataEvents> {
  private snapshot: Snapshot;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private refreshing: Promise<boolean> | null = null;
  private refreshAgain = false;
  /** Shared by successive snapshots: a review is analysed again only when its text or rating changes. */
  private readonly analysisCache: AnalysisCache;
  /** Work done on each new snapshot before it is served, besides its insights (see beforeServing). */
  private readonly preparers: ((snap: Snapshot) => Promise<void>)[] = [];

  private constructor(
    private readonly store: ReviewStore & KeptStore,
    private readonly logger: Logger,
    first: Snapshot,
    cache: AnalysisCache,
    private readonly feedTag: string,
    /** The byte-bounded body caches every snapshot of this process shares. */
    readonly caches: BodyCaches,
  ) {
    super();
    this.snapshot = first;
    this.analysisCache = cache;
    this.refreshLog = failureEpisodes(logger, 'refreshing data from the store');
  }

  /** The polling's failures: one line when it starts failing and one when it works again, not one per poll. */
  private readonly refreshLog: ReturnType<typeof failureEpisodes>;

  /** A refresh started by a timer or a signal: no caller waits on it, so its outcome is logged here. */
  private refreshInBackground(): void {
    this.refresh().then(
      () => this.refreshLog.succeeded(),
      (err: unknown) => this.refreshLog.failed(err),
    );
  }

  /** `feedTag`: the installation's tagging entity for feed entry ids, kept in the store's settings. */
  static async open(store: ReviewStore & KeptStore, logger: Logger, feedTag: string, caches = new BodyCaches()): Promise<LiveData> {
    const cache = new AnalysisCache();
    const live = new LiveData(store, logger, new Snapshot(await store.load(), feedTag, cache, caches), cache, feedTag, caches);
    await live.prepare(live.snapshot);
    return live;
  }

  /** Reviews the insights analyser has analysed in this process: none after a restart on an unchanged revision. */
  get analysedReviews(): number {
    return this.analysisCache.misses;
  }

  /** Adds work to do on every new snapshot before it is served (documents that need the public origin), and does it now on the current one. */
  async beforeServing(prepare: (snap: Snapshot) => Promise<void>): Promise<void> {
    this.preparers.push(prepare);
    await prepare(this.snapshot);
  }

  /**
   * Makes what a snapshot serves before it is served: its insights (loaded from the store, or
   * analysed and kept there), then the preparers' work. A failure is logged, not fatal: what was
   * not made is then made on first use, as before.
   */
  private async prepare(snap: Snapshot): Promise<void> {
    const started = performance.now();
    let insights: string;
    try {
      insights = await snap.prepareInsights(this.store);
    } catch (err) {
      insights = 'failed';
      this.logger.warn({ err, revision: snap.revision.revision }, 'preparing the insights failed; they are made on first use');
    }
    try {
      for (const prepare of this.preparers) await prepare(snap);
    } catch (err) {
      this.logger.warn({ err, revision: snap.revision.revision }, 'preparing the documents failed; they are made on first use');
    }
    this.logger.info({ revision: snap.revision.revision, insights, ms: Math.round(performance.now() - started) }, 'snapshot prepared');
  }

  current(): Snapshot {
    return this.snapshot;
  }

  /** Follows the store: at once when it signals a change (PostgreSQL), and by polling every `intervalMs` in any case. */
  watch(intervalMs: number): void {
    const refresh = () => this.refreshInBackground();
    this.timer ??= setInterval(refresh, intervalMs);
    this.timer.unref();
    this.unsubscribe ??= this.store.subscribe(refresh);
  }

  /**
   * Loads a new snapshot if the store moved on; true when it did. Calls during a load share it,
   * and one more check follows, so a change announced mid-load is not missed.
   */
  refresh(): Promise<boolean> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = this.doRefresh().finally(() => {
      this.refreshing = null;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.refreshInBackground();
      }
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const rev = await this.store.getRevision();
    if (rev.revision === this.snapshot.revision.revision) return false;
    const started = performance.now();
    const next = new Snapshot(await this.store.load(), this.feedTag, this.analysisCache, this.caches);
    await this.prepare(next);
    const previous = this.snapshot;
    this.snapshot = next;
    // The next one's bodies, made while it was prepared, stay.
    previous.release();
    this.logger.info(
      { revision: next.revision.revision, reviews: next.index.reviews.length, ms: Math.round(performance.now() - started) },
      'data changed: new snapshot',
    );
    this.emit('snapshot', next, previous);
    return true;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
