/** The Prometheus registry and the service's metrics. */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestStats } from './request-stats.js';

/** What the hub reports. */
export interface HubMetrics {
  delivery(outcome: 'delivered' | 'failed' | 'removed'): void;
  verification(outcome: 'verified' | 'rejected'): void;
}

/** What the body caches report: bytes held (as their budgets count them) and entries. */
export interface CacheFigures {
  documents: { bytes: number; entries: number; maxBytes: number };
  answers: { bytes: number; entries: number; maxBytes: number };
  /** Large bodies being compressed off the event loop, or waiting to be. */
  compressionsPending: number;
}

/**
 * The service's Prometheus metrics, one registry per server (several run in one test
 * process): requests by route and status, latency, hub outcomes, the data revision, and
 * the process figures prom-client collects (memory, CPU, event-loop lag, handles).
 */
export class Metrics implements HubMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestStats();
  private readonly deliveries = new Counter({
    name: 'reviewcast_hub_deliveries_total',
    help: 'WebSub content deliveries by outcome (failed: will retry; removed: the subscription was dropped)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly verifications = new Counter({
    name: 'reviewcast_hub_verifications_total',
    help: 'WebSub verifications of intent by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'reviewcast_http_rate_limited_total',
    help: 'Requests refused with 429 by the per-client limit',
    registers: [this.registry],
  });
  private readonly costRefused = new Counter({
    name: 'reviewcast_http_cost_limited_total',
    help: 'Requests refused with 429 because the client had used its kilobytes of answers for the minute (RATE_LIMIT_COST_KB)',
    registers: [this.registry],
  });
  readonly revision = new Gauge({ name: 'reviewcast_data_revision', help: 'Revision of the data being served', registers: [this.registry] });
  readonly reviews = new Gauge({ name: 'reviewcast_reviews', help: 'Reviews being served', registers: [this.registry] });
  private readonly build = new Gauge({
    name: 'reviewcast_build_info',
    help: 'Always 1: the release (version) and the build (a digest of its code) this process runs, so a rollout can be checked replica by replica',
    labelNames: ['version', 'build'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'reviewcast_' });
    for (const m of this.requests.metrics()) this.registry.registerMetric(m);
  }

  describeBuild(version: string, build: string): void {
    this.build.reset();
    this.build.set({ version, build }, 1);
  }

  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.record(route, method, status, seconds);
    if (status === 429) this.rateLimited.inc();
  }

  /** A request refused by the cost-weighted limit (also counted as rate limited). */
  costLimited(): void {
    this.costRefused.inc();
  }

  /** Reports the reviews the insights analyser has analysed (read at each scrape): none on a restart whose revision's insights are kept. */
  watchInsights(analysed: () => number): void {
    let counted = 0;
    new Counter({
      name: 'reviewcast_insights_analysed_reviews_total',
      help: 'Reviews analysed for the insights; a restart or replica on a revision whose insights the store keeps analyses none',
      registers: [this.registry],
      collect() {
        const now = analysed();
        this.inc(now - counted);
        counted = now;
      },
    });
  }

  /** Reports the body caches and compression queue, read at each scrape. */
  watchCaches(read: () => CacheFigures): void {
    const caches = ['documents', 'answers'] as const;
    const perCache = (name: string, help: string, figure: (c: CacheFigures['documents']) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['cache'] as const,
        registers: [this.registry],
        collect() {
          const f = read();
          for (const c of caches) this.set({ cache: c }, figure(f[c]));
        },
      });
    perCache('reviewcast_cache_bytes', 'Bytes held by each body cache (documents: CACHE_DOCUMENT_MB; answers: CACHE_ANSWER_MB)', (c) => c.bytes);
    perCache('reviewcast_cache_max_bytes', 'The budget of each body cache in bytes', (c) => c.maxBytes);
    perCache('reviewcast_cache_entries', 'Bodies held by each body cache', (c) => c.entries);
    new Gauge({
      name: 'reviewcast_compressions_pending',
      help: 'Large bodies being compressed off the event loop or waiting for a slot (COMPRESS_CONCURRENCY)',
      registers: [this.registry],
      collect() {
        this.set(read().compressionsPending);
      },
    });
  }

  /** Reports the bytes of the documents the current revision holds outside the caches, read at each scrape. */
  watchDocuments(read: () => number): void {
    new Gauge({
      name: 'reviewcast_documents_bytes',
      help: 'Bytes of the documents the current revision holds for every reader (/reviews.json, the feeds, /insights.json and their compressed forms), outside the body caches',
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  delivery(outcome: 'delivered' | 'failed' | 'removed'): void {
    this.deliveries.inc({ outcome });
  }

  verification(outcome: 'verified' | 'rejected'): void {
    this.verifications.inc({ outcome });
  }
}
