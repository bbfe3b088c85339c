/** The fast path: answers GET for pre-built documents ahead of fastify. */
import type { Logger } from 'pino';
import type { ServerResponse } from 'node:http';
import { endWithParts, prepareResponse, type Served } from './conditional.js';
import { setAnswerCost, setRouteLabel, type AnswerNow, type LimitHeaders } from './gate.js';
import type { Operation, ServiceContext } from './operation.js';
import type { Body, Representation } from '../snapshot/representation.js';

/** One answer as sent: status, headers as writeHead's flat list ending in the RateLimit pair (filled in per request), body (null for 304) and its length. */
interface Answer {
  status: number;
  headers: (string | number)[];
  body: Body | null;
  length: number;
}

/**
 * Answers per distinct (Accept-Encoding, If-None-Match, If-Modified-Since) per body. Clients send
 * a handful of distinct values; past this many a body's answers are forgotten and made again.
 * An answer holds only the header strings (a few hundred bytes) and shares the body's buffers,
 * so a body's answers stay within about 64 x 1 KB.
 */
const MAX_ANSWERS_PER_BODY = 64;
/** Request header values longer than this are not cached on (a client's own tags, hardly repeated). */
const MAX_KEY_CHARS = 512;

/** The answers made for one path's bodies; weak, so a body no longer served (an old snapshot's) takes its answers with it. */
type Answers = WeakMap<Representation, Map<string, Answer>>;

function answerOf(served: Served, reqHeaders: Parameters<typeof prepareResponse>[2]): Answer | 'encode' {
  const p = prepareResponse(served.rep, served.opts ?? {}, reqHeaders);
  if (p.status === 'encode') return 'encode';
  const headers: (string | number)[] = Object.entries(p.headers).flat();
  headers.push('ratelimit-policy', '', 'ratelimit', '');
  return { status: p.status, headers, body: p.body, length: p.length };
}

function send(res: ServerResponse, answer: Answer, limit: LimitHeaders, head: boolean): void {
  // The answer's own list takes this request's RateLimit values in its last two slots: writeHead
  // reads the list before it returns and keeps none of it, so no copy per request is needed.
  const headers = answer.headers;
  headers[headers.length - 3] = limit['ratelimit-policy'];
  headers[headers.length - 1] = limit.ratelimit;
  res.writeHead(answer.status, headers);
  endWithParts(res, head ? null : answer.body);
}

/**
 * Answers GET and HEAD for the document endpoints (datasets, feeds, pages) straight from the
 * snapshot, ahead of fastify's routing and hooks: these bodies are pre-built per revision, so
 * the router would be most of the cost. Their answers (status, headers, body per coding and
 * condition) are made once per body too, so a request formats only its RateLimit headers.
 * Anything else (a query string, another method or path, an error) returns false and goes to
 * fastify, which answers it the same way.
 */
export function buildFastPath(operations: readonly Operation[], ctx: ServiceContext, logger: Logger): AnswerNow {
  // Each entry keeps its path as the route label: one string for every request, whose hash the metrics' maps have already computed.
  const documents = new Map<string, { route: string; document: (ctx: ServiceContext) => Served; answers: Answers }>();
  for (const op of operations) if (op.method === 'GET' && op.document) documents.set(op.path, { route: op.path, document: op.document, answers: new WeakMap() });
  return (req, res, gateHeaders) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '';
    const path = documents.get(url);
    if (!path) return false;
    let served: Served;
    try {
      served = path.document(ctx);
    } catch (err) {
      // fastify's error handler logs and answers it.
      logger.debug({ err, url }, 'fast path declined');
      return false;
    }
    const h = req.headers;
    const key = `${h['accept-encoding'] ?? ''}\n${h['if-none-match'] ?? ''}\n${h['if-modified-since'] ?? ''}`;
    let byKey = path.answers.get(served.rep);
    let answer = byKey?.get(key);
    if (!answer) {
      const made = answerOf(served, h);
      // A compressed form still being made: fastify's handler waits for it, off this path.
      if (made === 'encode') return false;
      answer = made;
      if (key.length <= MAX_KEY_CHARS) {
        if (!byKey) path.answers.set(served.rep, (byKey = new Map()));
        if (byKey.size >= MAX_ANSWERS_PER_BODY) byKey.clear();
        byKey.set(key, answer);
      }
    }
    setRouteLabel(req, path.route);
    const head = req.method === 'HEAD';
    // Headers given to writeHead are not readable afterwards, so the gate is told the size here.
    setAnswerCost(req, head ? 0 : answer.length);
    send(res, answer, gateHeaders, head);
    return true;
  };
}
