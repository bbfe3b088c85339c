/** The fast path: answers GET for pre-built documents ahead of fastify. */
import type { Logger } from 'pino';
import { endWithParts, prepareResponse, type Served } from './conditional.js';
import { setAnswerCost, setRouteLabel, type AnswerNow } from './gate.js';
import type { Operation, ServiceContext } from './operation.js';

/**
 * Answers GET and HEAD for the document endpoints (datasets, feeds, pages) straight from the
 * snapshot, ahead of fastify's routing and hooks: these bodies are pre-built per revision, so
 * the router would be most of the cost. Anything else (a query string, another method or path,
 * an error) returns false and goes to fastify, which answers it the same way.
 */
export function buildFastPath(operations: readonly Operation[], ctx: ServiceContext, logger: Logger): AnswerNow {
  const documents = new Map<string, (ctx: ServiceContext) => Served>();
  for (const op of operations) if (op.method === 'GET' && op.document) documents.set(op.path, op.document);
  return (req, res, gateHeaders) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const document = documents.get(req.url ?? '');
    if (!document) return false;
    let served: Served;
    try {
      served = document(ctx);
    } catch (err) {
      // fastify's error handler logs and answers it.
      logger.debug({ err, url: req.url }, 'fast path declined');
      return false;
    }
    const p = prepareResponse(served.rep, served.opts ?? {}, req.headers, gateHeaders);
    // A compressed form still being made: fastify's handler waits for it, off this path.
    if (p.status === 'encode') return false;
    setRouteLabel(req, req.url!);
    // Headers given to writeHead are not readable afterwards, so the gate is told the size here.
    setAnswerCost(req, req.method === 'HEAD' ? 0 : p.length);
    res.writeHead(p.status, p.headers);
    endWithParts(res, req.method === 'HEAD' ? null : p.body);
    return true;
  };
}
