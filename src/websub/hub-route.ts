/** The hub's subscription endpoint: checks a subscription request and queues its verification of intent. */
import ipaddr from 'ipaddr.js';
import { TOPIC_PATHS } from '../core/feeds/websub-topics.js';
import { HubRequestSchema } from '../core/schema/websub.js';
import { redactCallback, refusedLiteral } from './address-guard.js';
import { clampLease, type Hub } from './hub.js';

/** What the endpoint reads of a request. */
export interface HubRequestIn {
  contentType: string | undefined;
  /** The body parsed as a form (repeated fields as arrays), or whatever else the body parsed to. */
  form: unknown;
  /** The client's address: the per-client cap and the log. */
  client: string;
  log: { warn(details: object, message: string): void };
}

/** Hub answers are plain text with a reason, as WebSub §5.1.2 asks; an error's text starts with its code (docs/errors.md). */
export interface HubAnswer {
  status: number;
  text: string;
}

type HubErrorCode = 'validation_error' | 'invalid_callback' | 'unsupported_media_type' | 'too_many_requests';

const refuse = (status: number, code: HubErrorCode, text: string): HubAnswer => ({ status, text: `${code}: ${text}` });

/**
 * Who a request counts against for the per-client cap: the IPv4 address, or the /64 of an IPv6
 * one (one host usually holds a whole /64, so counting single IPv6 addresses would cap nothing).
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** POST /api/websub/hub: validate, queue the verification of intent, answer 202 at once (§5.1.2). */
export async function handleHubRequest(req: HubRequestIn, ctx: { baseUrl: string; hub: Hub }): Promise<HubAnswer> {
  // fastify parses JSON bodies for every route; the hub takes only forms (WebSub §5.1).
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.contentType ?? '')) {
    return refuse(415, 'unsupported_media_type', 'Content-Type must be application/x-www-form-urlencoded');
  }
  const form = (req.form ?? {}) as Record<string, string | string[]>;
  const repeated = Object.keys(form).filter((k) => k.startsWith('hub.') && Array.isArray(form[k]));
  if (repeated.length) return refuse(400, 'validation_error', `${repeated.join(', ')} given more than once`);
  const parsed = HubRequestSchema.safeParse(form);
  if (!parsed.success) {
    const callbackRefused = parsed.error.issues.some((i) => i.code === 'custom' && (i.params as { code?: string } | undefined)?.code === 'invalid_callback');
    return refuse(400, callbackRefused ? 'invalid_callback' : 'validation_error', parsed.error.issues.map((i) => i.message).join('; '));
  }
  const r = parsed.data;
  const topics = TOPIC_PATHS.map((p) => `${ctx.baseUrl}${p}`);
  const topicIndex = topics.indexOf(r['hub.topic']);
  if (topicIndex < 0) return refuse(400, 'validation_error', `hub.topic must be one of: ${topics.join(', ')}`);
  const topic = TOPIC_PATHS[topicIndex]!;
  // The normalised URL is what is stored, called and keyed on: two spellings of one callback are one subscription.
  const callback = new URL(r['hub.callback']);
  const literal = ctx.hub.config.allowPrivateCallbacks ? null : refusedLiteral(callback);
  if (literal) {
    req.log.warn({ callback: redactCallback(callback.href), address: literal, client: req.client }, 'hub request refused: callback is not a public address');
    return refuse(400, 'invalid_callback', 'hub.callback must be a public address');
  }
  const host = callback.hostname.toLowerCase();
  const client = clientKey(req.client);
  const mode = r['hub.mode'];
  const capped = await overCap(ctx.hub, mode, callback.href, topic, host, client);
  if (capped) {
    req.log.warn({ callback: redactCallback(callback.href), client, mode, cap: capped }, 'hub request refused: cap reached');
    return refuse(429, 'too_many_requests', capped);
  }
  await ctx.hub.requestVerification({
    callback: callback.href,
    topic,
    callback_host: host,
    client,
    mode,
    lease_seconds: clampLease(r['hub.lease_seconds'], ctx.hub.config),
    secret: r['hub.secret'] ?? null,
  });
  return { status: 202, text: `Accepted: ${mode === 'unsubscribe' ? 'an' : 'a'} ${mode} verification request will be sent to the callback` };
}

/**
 * Which cap a request would pass, or null. Active subscriptions and pending requests of either
 * mode count (each request makes the hub call a callback). Unsubscribing an active subscription
 * is never capped, unless a request for it is already pending: a subscriber at its cap can
 * always leave, and repeating the request does not multiply the calls.
 */
async function overCap(hub: Hub, mode: 'subscribe' | 'unsubscribe', callback: string, topic: string, host: string, client: string): Promise<string | null> {
  if (mode === 'unsubscribe') {
    const state = await hub.requestState(callback, topic);
    if (state.active && state.pending === 0) return null;
  }
  const cfg = hub.config;
  const n = await hub.countForCaps(host, client);
  if (n.total >= cfg.maxSubscriptions) return `the hub holds its maximum of ${cfg.maxSubscriptions} subscriptions and pending requests; retry later`;
  if (n.client >= cfg.maxSubscriptionsPerClient) return `too many subscriptions and pending requests from this client (limit ${cfg.maxSubscriptionsPerClient})`;
  if (n.host >= cfg.maxSubscriptionsPerHost) return `too many subscriptions and pending requests for callback host ${host} (limit ${cfg.maxSubscriptionsPerHost})`;
  return null;
}
