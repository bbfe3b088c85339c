/** Durable hub state: what the WebSub hub keeps in the store so a restart loses nothing. Times are epoch ms. */

type HubMode = 'subscribe' | 'unsubscribe';

export interface Subscription {
  callback: string;
  /** Topic path relative to BASE_URL, e.g. /feed.xml */
  topic: string;
  callback_host: string;
  /** Who asked for it (see VerificationRequest.client); '' for subscriptions made before it was recorded. */
  client: string;
  secret: string | null;
  lease_seconds: number;
  expires_at: number;
  failures: number;
  created_at: number;
}

export interface VerificationRequest {
  /** Normalised (`new URL(...).href`): the key of the subscription. */
  callback: string;
  topic: string;
  callback_host: string;
  /** The requesting client (an IPv4 address or an IPv6 /64), for the per-client cap. */
  client: string;
  mode: HubMode;
  lease_seconds: number;
  secret: string | null;
}

export interface VerificationJob extends VerificationRequest {
  id: number;
}

export interface CapCounts {
  host: number;
  client: number;
  total: number;
}

export type VerificationResult = { kind: 'verified' } | { kind: 'rejected' };

export interface DeliveryJob {
  id: number;
  callback: string;
  topic: string;
  /** Bumped by every announcement; a success only clears the job if no newer change arrived meanwhile. */
  seq: number;
  secret: string | null;
  /** The topic body last announced (by any replica): what this delivery must carry. */
  etag: string;
}

export interface HubStore {
  enqueueVerification(req: VerificationRequest, now: number): Promise<void>;
  /** Takes due verifications for `claimMs`; a crashed worker's claim lapses and another takes them. */
  claimVerifications(now: number, claimMs: number, limit: number): Promise<VerificationJob[]>;
  /** Applies a verified request (subscribe: upsert with a fresh lease; unsubscribe: delete) and drops the job. */
  finishVerification(job: VerificationJob, result: VerificationResult, now: number): Promise<void>;
  /**
   * What counts against the hub's caps: active subscriptions plus pending requests of either mode
   * (each one makes the hub call a callback), for a callback host, for a requesting client, and in all.
   */
  countForCaps(host: string, client: string, now: number): Promise<CapCounts>;
  /** Whether the callback holds an active subscription to the topic, and how many requests for the pair await verification. */
  requestState(callback: string, topic: string, now: number): Promise<{ active: boolean; pending: number }>;
  listSubscriptions(): Promise<Subscription[]>;
  /** Requests still waiting for their verification of intent. */
  listPendingVerifications(): Promise<VerificationJob[]>;
  /**
   * Records the current body of a topic at a data revision; if it differs from the last one
   * announced, and is not older, queues a delivery to every live subscriber (coalescing with
   * any already queued). Returns how many.
   */
  announceTopic(topic: string, etag: string, revision: number, now: number): Promise<number>;
  claimDeliveries(now: number, claimMs: number, limit: number): Promise<DeliveryJob[]>;
  deliverySucceeded(job: DeliveryJob, now: number): Promise<void>;
  /** Sets when a claimed delivery is next due (a retry, or a job this replica cannot send yet). */
  rescheduleDelivery(job: DeliveryJob, dueAt: number): Promise<void>;
  /** Counts a failed attempt against the job's subscription; returns its consecutive failures, or null when it no longer exists. */
  recordDeliveryFailure(job: DeliveryJob): Promise<number | null>;
  /** Deletes a subscription and any delivery queued for it. */
  removeSubscription(callback: string, topic: string): Promise<void>;
  /** Deletes subscriptions whose lease has run out; returns how many. */
  removeExpired(now: number): Promise<number>;
}
