import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOPIC_PATHS } from '../core/feeds/topics.js';
import { HubRequestSchema } from '../core/schema/websub.js';
import type { ServiceContext } from '../http/route-table.js';
import { refusedLiteral } from './address-guard.js';
import { clampLease } from './hub.js';

/** Hub answers are plain text with a reason, as WebSub §5.1.2 asks. */
export function plainText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send(`${text}\n`);
}

/** POST /api/websub/hub: validate, queue the verification of intent, answer 202 at once (§5.1.2). */
export async function handleHubRequest(req: FastifyRequest, reply: FastifyReply, ctx: ServiceContext): Promise<FastifyReply> {
  // fastify parses JSON bodies for every route; the hub takes only forms (WebSub §5.1).
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return plainText(reply, 415, 'Content-Type must be application/x-www-form-urlencoded');
  }
  const form = (req.body ?? {}) as Record<string, string | string[]>;
  const repeated = Object.keys(form).filter((k) => k.startsWith('hub.') && Array.isArray(form[k]));
  if (repeated.length) return plainText(reply, 400, `${repeated.join(', ')} given more than once`);
  const parsed = HubRequestSchema.safeParse(form);
  if (!parsed.success) return plainText(reply, 400, parsed.error.issues.map((i) => i.message).join('; '));
  const r = parsed.data;
  const topics = TOPIC_PATHS.map((p) => `${ctx.baseUrl}${p}`);
  const topicIndex = topics.indexOf(r['hub.topic']);
  if (topicIndex < 0) return plainText(reply, 400, `hub.topic must be one of: ${topics.join(', ')}`);
  const callback = new URL(r['hub.callback']);
  const literal = ctx.hub.config.allowPrivateCallbacks ? null : refusedLiteral(callback);
  if (literal) {
    req.log.warn({ callback: callback.href, address: literal, client: req.ip }, 'hub request refused: callback is not a public address');
    return plainText(reply, 400, 'hub.callback must be a public address');
  }
  const host = callback.hostname.toLowerCase();
  if (r['hub.mode'] === 'subscribe' && (await ctx.hub.store.countForHost(host, Date.now())) >= ctx.hub.config.maxSubscriptionsPerHost) {
    return plainText(reply, 429, `too many subscriptions for callback host ${host} (limit ${ctx.hub.config.maxSubscriptionsPerHost})`);
  }
  await ctx.hub.store.enqueueVerification(
    {
      callback: r['hub.callback'],
      topic: TOPIC_PATHS[topicIndex]!,
      callback_host: host,
      mode: r['hub.mode'],
      lease_seconds: clampLease(r['hub.lease_seconds'], ctx.hub.config),
      secret: r['hub.secret'] ?? null,
    },
    Date.now(),
  );
  ctx.hub.kick();
  return plainText(reply, 202, `Accepted: a ${r['hub.mode']} verification request will be sent to the callback`);
}
