import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { generate } from 'selfsigned';

/** Hub settings for tests: loopback callbacks allowed, retries and polling fast enough to wait for. */
export const TEST_HUB = { allowPrivateCallbacks: true, retryDelaysMs: [30, 30], pollMs: 20 };

export interface TestCa {
  caCert: string;
  key: string;
  cert: string;
}

/** A CA made for this test run and a server certificate it signs for localhost and the given IPs. */
export async function makeTestCa(ips: readonly string[] = ['127.0.0.1'], names: readonly string[] = ['localhost']): Promise<TestCa> {
  // EC keys: handshakes cost the callbacks little, so benchmarks measure the hub, not the subscribers.
  const ca = await generate([{ name: 'commonName', value: 'Reviewcast Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [...names.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))] },
    ],
  });
  return { caCert: ca.cert, key: leaf.private, cert: leaf.cert };
}

export interface SeenRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> };
/** Decides the answer to one request; the default echoes challenges and accepts deliveries. */
export type Behaviour = (req: SeenRequest) => Answer | Promise<Answer>;

export const echoChallenge: Behaviour = (req) =>
  req.method === 'GET' ? { status: 200, body: req.url.searchParams.get('hub.challenge') ?? '' } : { status: 204 };

/** A real HTTPS subscriber on 127.0.0.1 that records everything it is sent. */
export class CallbackServer {
  readonly requests: SeenRequest[] = [];
  behaviour: Behaviour = echoChallenge;
  private server!: Server;
  port = 0;

  host = '127.0.0.1';

  static async start(ca: TestCa, host = '127.0.0.1'): Promise<CallbackServer> {
    const cb = new CallbackServer();
    cb.server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const seen = { method: req.method!, url: new URL(req.url!, `https://${cb.host}:${cb.port}`), headers: req.headers, body: Buffer.concat(chunks) };
        cb.requests.push(seen);
        const answer = await cb.behaviour(seen);
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
    cb.host = host;
    await new Promise<void>((resolve) => cb.server.listen(0, host, resolve));
    cb.port = (cb.server.address() as { port: number }).port;
    return cb;
  }

  url(path = '/cb'): string {
    return `https://${this.host}:${this.port}${path}`;
  }

  posts(path = '/cb'): SeenRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.url.pathname === path);
  }

  gets(path = '/cb'): SeenRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.url.pathname === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export async function hubPost(baseUrl: string, fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded'): Promise<{ status: number; text: string; type: string | null }> {
  const body = contentType === 'application/x-www-form-urlencoded' ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
  const res = await fetch(`${baseUrl}/api/websub/hub`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}
