/** The WebSub hub's worker: verification of intent, announcements, deliveries, and the policy that removes failing subscriptions. */
import { createHmac, randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { HubConfig } from '../config.js';
import { failureEpisodes } from '../logger.js';
import { HUB_PATH, TOPIC_PATHS, type TopicPath } from '../core/feeds/websub-topics.js';
import type { LiveData } from '../snapshot/live-data.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { CapCounts, DeliveryJob, HubStore, VerificationJob, VerificationRequest } from '../store/hub-store.js';
import type { RateLimitStore } from '../store/store.js';
import type { HubMetrics } from '../metrics/metrics.js';
import { redactCallback } from './address-guard.js';
import { CallbackClient } from './callback-client.js';

/** Interface spec, Rules: after 3 consecutive delivery failures the hub removes the subscription. */
const MAX_CONSECUTIVE_FAILURES = 3;
/** Callback requests under way at once. */
const BATCH = 128;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random, alphanumeric, single use (never stored: it lives only for its verification request). */
function newChallenge(length = 43): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return s;
}

export function clampLease(requested: number | undefined, cfg: HubConfig): number {
  if (requested === undefined) return cfg.leaseDefaultSeconds;
  return Math.min(cfg.leaseMaxSeconds, Math.max(cfg.leaseMinSeconds, requested));
}

/** `Link` header advertising the hub and the topic's own URL (WebSub §4, §7). */
/** How long to wait before the next attempt after `failures` consecutive failures: the configured delays, the last one repeating. */
function retryDelay(failures: number, delaysMs: readonly number[]): number {
  return delaysMs[Math.min(failures - 1, delaysMs.length - 1)] ?? 0;
}

export function topicLinkHeader(baseUrl: string, topic: TopicPath): string {
  return `<${baseUrl}${HUB_PATH}>; rel="hub", <${baseUrl}${topic}>; rel="self"`;
}

/**
 * The hub's background work: verifying intent, announcing topic changes and delivering them.
 * All state is in the store, so work survives restarts and can be shared by replicas; this
 * object only drives it.
 */
export class Hub {
  private readonly client: CallbackClient;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private lastPrune = 0;
  private lastExpiry = 0;
  private closing = false;
  /** Verifications and deliveries under way: a slow callback holds one slot, never the whole hub. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Announcements under way: idle() waits for them too, so "nothing was queued" is observable. */
  private readonly announcing = new Set<Promise<void>>();
  private readonly onSnapshot = (next: Snapshot) => {
    const work = this.announce(next)
      .then(() => this.kick())
      .catch((err: unknown) => this.logger.error({ err }, 'announcing topic changes failed'))
      .finally(() => this.announcing.delete(work));
    this.announcing.add(work);
  };

  constructor(
    /** The hub's state, and the rate-limit counters it prunes. */
    private readonly store: HubStore & Pick<RateLimitStore, 'pruneRateLimits'>,
    private readonly live: LiveData,
    readonly config: HubConfig,
    private readonly baseUrl: () => string,
    private readonly logger: Logger,
    private readonly metrics?: HubMetrics,
  ) {
    this.client = new CallbackClient({ allowPrivate: config.allowPrivateCallbacks, timeoutMs: config.timeoutMs, ca: config.ca, maxBodyBytes: 4096, resolver: config.resolver });
    this.passLog = failureEpisodes(logger, 'the hub work pass');
  }

  /** Work passes run on a timer: a store outage is one line when it starts and one when it ends, not one per pass. */
  private readonly passLog: ReturnType<typeof failureEpisodes>;

  async start(): Promise<void> {
    // Changes made while no server ran (an import with the service down) are announced now.
    await this.announce(this.live.current());
    this.live.on('snapshot', this.onSnapshot);
    this.timer = setInterval(() => this.kick(), this.config.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Records each topic's current body; a changed body queues deliveries to its subscribers. */
  private async announce(snap: Snapshot): Promise<void> {
    const now = Date.now();
    for (const topic of TOPIC_PATHS) {
      const queued = await this.store.announceTopic(topic, snap.topic(topic, this.baseUrl()).etag, snap.revision.revision, now);
      if (queued > 0) this.logger.info({ topic, subscribers: queued, revision: snap.revision.revision }, 'topic changed: deliveries queued');
    }
  }

  /** Active subscriptions and pending requests per callback host, per requesting client and in all, for the caps. */
  async countForCaps(host: string, client: string): Promise<CapCounts> {
    return this.store.countForCaps(host, client, Date.now());
  }

  /** Whether a callback is subscribed to a topic, and how many requests for the pair are pending. */
  async requestState(callback: string, topic: string): Promise<{ active: boolean; pending: number }> {
    return this.store.requestState(callback, topic, Date.now());
  }

  /** Queues a subscription request's verification of intent and starts work on it at once. */
  async requestVerification(req: VerificationRequest): Promise<void> {
    await this.store.enqueueVerification(req, Date.now());
    this.kick();
  }

  /** Runs a work pass now (or right after the one in progress). */
  kick(): void {
    if (this.closing) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .then(
        () => this.passLog.succeeded(),
        (err: unknown) => this.passLog.failed(err),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no announcement, no work pass and no callback request is running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.announcing.size > 0 || this.running || this.inFlight.size > 0) {
      await Promise.all(this.announcing);
      await this.running;
      await Promise.all(this.inFlight);
    }
  }

  private track(work: Promise<void>): void {
    const job = work
      .catch((err: unknown) => this.logger.error({ err }, 'hub job failed'))
      .finally(() => {
        this.inFlight.delete(job);
        // A free slot: claim the next job now rather than at the next poll.
        this.kick();
      });
    this.inFlight.add(job);
  }

  private async pass(): Promise<void> {
    const now = Date.now();
    // Every finished job starts a pass, so the housekeeping runs at most once per poll interval.
    if (now - this.lastExpiry >= this.config.pollMs) {
      this.lastExpiry = now;
      const expired = await this.store.removeExpired(now);
      if (expired > 0) this.logger.info({ expired }, 'leases ended: subscriptions removed');
    }
    if (now - this.lastPrune >= 60_000) {
      this.lastPrune = now;
      await this.store.pruneRateLimits(now - 3_600_000);
    }
    let room = BATCH - this.inFlight.size;
    if (room <= 0) return;
    const verifications = await this.store.claimVerifications(now, this.config.claimMs, room);
    for (const v of verifications) this.track(this.verify(v));
    room -= verifications.length;
    if (room <= 0) return;
    const deliveries = await this.store.claimDeliveries(now, this.config.claimMs, room);
    for (const d of deliveries) this.track(this.deliver(d));
  }

  /** Verification of intent (WebSub §5.3): success only on a 2xx whose body is exactly the challenge. */
  private async verify(job: VerificationJob): Promise<void> {
    const challenge = newChallenge();
    const url = new URL(job.callback);
    url.searchParams.append('hub.mode', job.mode);
    url.searchParams.append('hub.topic', `${this.baseUrl()}${job.topic}`);
    url.searchParams.append('hub.challenge', challenge);
    if (job.mode === 'subscribe') url.searchParams.append('hub.lease_seconds', String(job.lease_seconds));
    let verified = false;
    let detail: string;
    try {
      const res = await this.client.send('GET', url.toString());
      verified = res.status >= 200 && res.status < 300 && res.body === challenge;
      detail = verified ? 'ok' : `status ${res.status}${res.status >= 200 && res.status < 300 ? ', body is not the challenge' : ''}`;
    } catch (err) {
      detail = (err as Error).message;
    }
    await this.store.finishVerification(job, { kind: verified ? 'verified' : 'rejected' }, Date.now());
    this.metrics?.verification(verified ? 'verified' : 'rejected');
    this.logger.info({ callback: redactCallback(job.callback), topic: job.topic, mode: job.mode, verified, detail }, `${job.mode} ${verified ? 'verified' : 'rejected'}`);
  }

  /** Distribution (WebSub §7): the full topic body, its exact Content-Type, Link, and a signature when a secret was given. */
  private async deliver(job: DeliveryJob): Promise<void> {
    const topic = job.topic as TopicPath;
    let rep = this.live.current().topic(topic, this.baseUrl());
    if (rep.etag !== job.etag) {
      // Another replica announced a body this one has not loaded yet: catch up, or leave the job to one that has.
      await this.live.refresh();
      rep = this.live.current().topic(topic, this.baseUrl());
      if (rep.etag !== job.etag) {
        await this.store.rescheduleDelivery(job, Date.now() + this.config.pollMs);
        this.logger.debug({ callback: redactCallback(job.callback), topic }, 'delivery deferred: announced body not loaded here yet');
        return;
      }
    }
    const headers: Record<string, string> = { 'content-type': rep.contentType, link: topicLinkHeader(this.baseUrl(), topic) };
    if (job.secret !== null) headers['x-hub-signature'] = `sha256=${createHmac('sha256', job.secret).update(rep.identity).digest('hex')}`;
    let status = 0;
    let error: string | undefined;
    try {
      status = (await this.client.send('POST', job.callback, rep.identity, headers)).status;
    } catch (err) {
      error = (err as Error).message;
    }
    const now = Date.now();
    if (status >= 200 && status < 300) {
      await this.store.deliverySucceeded(job, now);
      this.metrics?.delivery('delivered');
      this.logger.debug({ callback: redactCallback(job.callback), topic, status }, 'delivered');
      return;
    }
    // The rule of the interface spec: 410 Gone, or MAX_CONSECUTIVE_FAILURES failures in a row, ends the subscription.
    const failures = await this.store.recordDeliveryFailure(job);
    const outcome = failures === null || status === 410 || failures >= MAX_CONSECUTIVE_FAILURES ? 'removed' : 'retry';
    if (outcome === 'removed') await this.store.removeSubscription(job.callback, job.topic);
    else await this.store.rescheduleDelivery(job, now + retryDelay(failures!, this.config.retryDelaysMs));
    this.metrics?.delivery(outcome === 'removed' ? 'removed' : 'failed');
    this.logger.warn({ callback: redactCallback(job.callback), topic, status, error, outcome }, outcome === 'removed' ? 'delivery failed: subscription removed' : 'delivery failed: will retry');
  }

  /** Stops claiming work and waits for the requests under way (each bounded by HUB_TIMEOUT_MS). */
  async close(): Promise<void> {
    this.closing = true;
    this.live.off('snapshot', this.onSnapshot);
    if (this.timer) clearInterval(this.timer);
    await this.idle();
    await this.client.close();
  }
}
