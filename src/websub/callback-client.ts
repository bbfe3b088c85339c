/** The HTTP client for hub callbacks: guarded addresses, timeouts, bounded bodies. */
import type { Agent, Dispatcher, request } from 'undici';
import type { Resolver } from '../config.js';
import { CallbackAddressError, guardedLookup, refusedLiteral } from './address-guard.js';

export interface CallbackClientOptions {
  /** Lifts the public-address rule: for local testing only. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM), e.g. a test CA. */
  ca?: string[];
  /** At most this much of a callback's answer is read. */
  maxBodyBytes: number;
  /** Replaces the system resolver (tests of the address guard). */
  resolver?: Resolver;
}

export interface CallbackResponse {
  status: number;
  body: string;
}

/** undici's request and the agent callbacks are sent through. */
interface Connected {
  agent: Agent;
  request: typeof request;
}

/**
 * HTTP client for subscriber callbacks: address guard, pinned connections, no redirects, timeouts,
 * capped reads. undici is loaded with the first callback: a start-up serves without it (it took
 * ~50 ms of a restart), and most hubs wait minutes for their first subscriber.
 */
export class CallbackClient {
  private client: Promise<Connected> | null = null;

  constructor(private readonly opts: CallbackClientOptions) {}

  private connect(): Promise<Connected> {
    const opts = this.opts;
    this.client ??= import('undici').then((undici) => ({
      request: undici.request,
      agent: new undici.Agent({
        connect: {
          timeout: opts.timeoutMs,
          ...(opts.allowPrivate ? {} : { lookup: guardedLookup(opts.resolver) }),
          ...(opts.ca ? { ca: opts.ca } : {}),
        },
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        connections: 8,
      }),
    }));
    return this.client;
  }

  async send(method: 'GET' | 'POST', url: string, body?: Buffer, headers: Record<string, string> = {}): Promise<CallbackResponse> {
    const target = new URL(url);
    const literal = this.opts.allowPrivate ? null : refusedLiteral(target);
    if (literal) throw new CallbackAddressError(literal, literal);
    const { agent, request: call } = await this.connect();
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    const res: Dispatcher.ResponseData = await call(target, {
      method,
      headers: { 'user-agent': 'Reviewcast-WebSub-Hub', ...headers },
      body,
      dispatcher: agent,
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      chunks.push(buf);
      size += buf.length;
      if (size >= this.opts.maxBodyBytes) break;
    }
    // Breaking out of the loop destroys the stream; the rest of a large answer is never read.
    return { status: res.statusCode, body: Buffer.concat(chunks).subarray(0, this.opts.maxBodyBytes).toString('utf8') };
  }

  async close(): Promise<void> {
    if (this.client) await (await this.client).agent.close();
  }
}
