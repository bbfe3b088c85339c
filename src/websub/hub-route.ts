/** The hub's subscription endpoint: checks a subscription request and queues its verification of intent. */
import { TOPIC_PATHS } from '../core/feeds/websub-topics.js';
import { HubRequestSchema } from '../core/schema/websub.js';
import { refusedLiteral } from './address-guard.js';
import { clampLease, type Hub } from './hub.js';

/** What the endpoint reads of a request. */
export interface HubRequestIn {
  contentType: string | undefined;
  /** The body parsed as a form (repeated fields as arrays), or whatever else the body parsed to. */
  form: unknown;
  /** The client's address, for the log. */
  client: string;
  log: { warn(details: object, message: string): void };
}

/** Hub answers are plain text with a reason, as WebSub §5.1.2 asks. */
export interface HubAnswer {
  status: number;
  text: string;
}

const answer = (status: number, text: string): HubAnswer => ({ status, text });

/** POST /api/websub/hub: validate, queue the verification of intent, answer 202 at once (§5.1.2). */
export async function handleHubRequest(req: HubRequestIn, ctx: { baseUrl: string; hub: Hub }): Promise<HubAnswer> {
  // fastify parses JSON bodies for every route; the hub takes only forms (WebSub §5.1).
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.contentType ?? '')) {
    return answer(415, 'Content-Type must be application/x-www-form-urlencoded');
  }
  const form = (req.form ?? {}) as Record<string, string | string[]>;
  const repeated = Object.keys(form).filter((k) => k.startsWith('hub.') && Array.isArray(form[k]));
  if (repeated.length) return answer(400, `${repeated.join(', ')} given more than once`);
  const parsed = HubRequestSchema.safeParse(form);
  if (!parsed.success) return answer(400, parsed.error.issues.map((i) => i.message).join('; '));
  const r = parsed.data;
  const topics = TOPIC_PATHS.map((p) => `${ctx.baseUrl}${p}`);
  const topicIndex = topics.indexOf(r['hub.topic']);
  if (topicIndex < 0) return answer(400, `hub.topic must be one of: ${topics.join(', ')}`);
  const callback = new URL(r['hub.callback']);
  const literal = ctx.hub.config.allowPrivateCallbacks ? null : refusedLiteral(callback);
  if (literal) {
    req.log.warn({ callback: callback.href, address: literal, client: req.client }, 'hub request refused: callback is not a public address');
    return answer(400, 'hub.callback must be a public address');
  }
  const host = callback.hostname.toLowerCase();
  if (r['hub.mode'] === 'subscribe' && (await ctx.hub.countForHost(host)) >= ctx.hub.config.maxSubscriptionsPerHost) {
    return answer(429, `too many subscriptions for callback host ${host} (limit ${ctx.hub.config.maxSubscriptionsPerHost})`);
  }
  await ctx.hub.requestVerification({
    callback: r['hub.callback'],
    topic: TOPIC_PATHS[topicIndex]!,
    callback_host: host,
    mode: r['hub.mode'],
    lease_seconds: clampLease(r['hub.lease_seconds'], ctx.hub.config),
    secret: r['hub.secret'] ?? null,
  });
  return answer(202, `Accepted: a ${r['hub.mode']} verification request will be sent to the callback`);
}
