/** The node:http server's protections (header size, timeouts, keep-alive), the same for the service and for the benchmarks' bare baseline. */
import type { ServerOptions } from 'node:http';
import type { HttpConfig } from '../config.js';
import { MAX_HEADER_BYTES } from '../limits.js';

export function serverOptions(http: HttpConfig): ServerOptions {
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: http.headersTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    // Longer than the 60 s idle timeout of common load balancers, so the balancer closes first (fastify's own default).
    keepAliveTimeout: 72_000,
    // How often Node looks for requests past those timeouts; its default of 30 s would let a slow client linger.
    connectionsCheckingInterval: Math.min(1000, http.headersTimeoutMs),
  };
}
