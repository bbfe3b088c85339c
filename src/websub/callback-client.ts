/** The HTTP client for hub callbacks: guarded addresses, timeouts, bounded bodies. */
import { Agent, request, type Dispatcher } from 'undici';
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

/** HTTP client for subscriber callbacks: address guard, pinned connections, no redirects, timeouts, capped reads. */
export class CallbackClient {
  private readonly agent: Agent;

  constructor(private readonly opts: CallbackClientOptions) {
    this.agent = new Agent({
      connect: {
        timeout: opts.timeoutMs,
        ...(opts.allowPrivate ? {} : { lookup: guardedLookup(opts.resolver) }),
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connections: 8,
    });
  }

  async send(method: 'GET' | 'POST', url: string, body?: Buffer, headers: Record<string, string> = {}): Promise<CallbackResponse> {
    const target = new URL(url);
    const literal = this.opts.allowPrivate ? null : refusedLiteral(target);
    if (literal) throw new CallbackAddressError(literal, literal);
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    const res: Dispatcher.ResponseData = await request(target, {
      method,
      headers: { 'user-agent': 'Reviewcast-WebSub-Hub', ...headers },
      body,
      dispatcher: this.agent,
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
    await this.agent.close();
  }
}
