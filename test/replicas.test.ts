/**
 * Three real server processes on one PostgreSQL database behind Debian's nginx, configured with
 * deploy/nginx.conf: what operators run when one machine is outgrown.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REVIEWS, BUSINESS } from './fixtures/data.js';
import { ROOT, TEST_STORE, eventually, freePort, freshDatabase, runCli, tempDir } from './helpers.js';
import { makeTestCa, type TestCa } from './websub-helpers.js';

interface Replica {
  port: number;
  proc: ChildProcess;
}

let ca: TestCa;
let dir: string;
let database: string;
let env: Record<string, string>;
const replicas: Replica[] = [];
let nginx: ChildProcess;
let lbPort: number;
let baseUrl: string;

async function startReplica(port: number): Promise<Replica> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const up = await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true, 20_000, 100);
  assert.ok(up, `replica on ${port} did not start`);
  return { port, proc };
}

function kill(r: Replica): Promise<void> {
  return new Promise((resolve) => {
    if (r.proc.exitCode !== null || r.proc.signalCode !== null) return resolve();
    r.proc.once('exit', () => resolve());
    r.proc.kill('SIGKILL');
  });
}

/** An HTTPS subscriber that records deliveries; `hold` keeps answers back to simulate a replica dying mid-delivery. */
class Subscriber {
  posts: { path: string; body: string; at: number }[] = [];
  hold = false;
  heldClosed = false;
  server!: Server;
  port = 0;
  async start(): Promise<void> {
    this.server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url!, 'https://127.0.0.1');
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(url.searchParams.get('hub.challenge') ?? '');
          return;
        }
        this.posts.push({ path: url.pathname, body: Buffer.concat(chunks).toString(), at: Date.now() });
        if (this.hold) {
          res.on('close', () => (this.heldClosed = true));
          return;
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }
  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }
  count(path: string): number {
    return this.posts.filter((p) => p.path === path).length;
  }
}
const sub = new Subscriber();

async function etags(): Promise<(string | null)[]> {
  return Promise.all(replicas.filter((r) => r.proc.exitCode === null && r.proc.signalCode === null).map(async (r) => (await fetch(`http://127.0.0.1:${r.port}/reviews.json`)).headers.get('etag')));
}

async function subscribe(path: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.callback': sub.url(path), 'hub.mode': 'subscribe', 'hub.topic': `${baseUrl}/reviews.json` }).toString(),
  });
  assert.equal(res.status, 202);
}

async function importReviews(reviews: typeof REVIEWS): Promise<void> {
  const file = join(dir, `import-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(reviews));
  const res = await runCli(['import', file], { DATABASE_URL: database });
  assert.equal(res.code, 0, res.stderr);
}

describe('several replicas on one PostgreSQL behind nginx', { skip: TEST_STORE !== 'postgres' && 'runs with TEST_STORE=postgres (see .ci/run)' }, () => {
  before(async () => {
    ca = await makeTestCa();
    dir = tempDir();
    writeFileSync(join(dir, 'ca.pem'), ca.caCert);
    database = await freshDatabase('postgres');
    lbPort = await freePort();
    baseUrl = `http://127.0.0.1:${lbPort}`;
    env = {
      DATABASE_URL: database,
      BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      HUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      HUB_POLL_MS: '100',
      HUB_CLAIM_MS: '2000',
      HUB_TIMEOUT_MS: '60000',
      HUB_RETRY_DELAYS_MS: '200,200',
      REVISION_POLL_MS: '5000',
    };
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify({ business: BUSINESS, reviews: REVIEWS.slice(0, 3) }));
    const seeded = await runCli(['import', file], { DATABASE_URL: database });
    assert.equal(seeded.code, 0, seeded.stderr);
    const ports = [await freePort(), await freePort(), await freePort()];
    replicas.push(...(await Promise.all(ports.map(startReplica))));

    // deploy/nginx.conf, as shipped, with this run's ports and paths.
    const prefix = join(dir, 'nginx');
    mkdirSync(prefix, { recursive: true });
    let conf = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8');
    let i = 0;
    conf = conf
      .replace(/server 127\.0\.0\.1:300\d/g, () => `server 127.0.0.1:${ports[i++]}`)
      .replace('listen 8080;', `listen 127.0.0.1:${lbPort};`)
      .replace(/^pid .*$/m, `pid ${prefix}/nginx.pid;`)
      .replace(/^error_log .*$/m, `error_log ${prefix}/error.log warn;`)
      .replace(/client_body_temp_path .*;/, `client_body_temp_path ${prefix}/body;`)
      .replace(/proxy_temp_path .*;/, `proxy_temp_path ${prefix}/proxy;`);
    assert.equal(i, 3, 'deploy/nginx.conf names three upstream servers');
    writeFileSync(join(prefix, 'nginx.conf'), conf);
    const check = spawnSync('nginx', ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.status, 0, `nginx -t: ${check.stderr}`);
    nginx = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
    assert.ok(await eventually(async () => (await fetch(`${baseUrl}/healthz`).catch(() => null))?.ok === true, 10_000, 100), 'nginx did not come up');
    await sub.start();
  });

  after(async () => {
    nginx?.kill('SIGQUIT');
    await Promise.all(replicas.map(kill));
    sub.server?.closeAllConnections();
    sub.server?.close();
  });

  it('serve the same ETag everywhere within a second of an import by another process', async () => {
    const before = await etags();
    assert.equal(new Set(before).size, 1, 'same data, same ETag');
    await importReviews(REVIEWS.slice(0, 5));
    const started = Date.now();
    const converged = await eventually(async () => {
      const now = await etags();
      return new Set(now).size === 1 && now[0] !== before[0];
    }, 1000, 20);
    assert.ok(converged, `replicas did not converge within 1 s (polling is every 5 s, so LISTEN/NOTIFY did it): ${JSON.stringify(await etags())}`);
    assert.ok(Date.now() - started <= 1000);
  });

  it('deliver each change exactly once to each subscriber', async () => {
    for (const p of ['/a', '/b', '/c']) await subscribe(p);
    assert.ok(await eventually(async () => (await runCli(['hub', 'list', '--json'], { DATABASE_URL: database })).stdout.split('"active"').length - 1 === 3, 10_000, 200));
    await importReviews(REVIEWS.slice(0, 6));
    assert.ok(await eventually(async () => ['/a', '/b', '/c'].every((p) => sub.count(p) === 1), 5000));
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(['/a', '/b', '/c'].map((p) => sub.count(p)), [1, 1, 1], 'no replica delivered a second time');
  });

  it('move an MCP session between replicas', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`http://127.0.0.1:${replicas[0]!.port}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    const sid = init.headers.get('mcp-session-id')!;
    assert.ok(sid);
    for (const target of [`http://127.0.0.1:${replicas[1]!.port}`, `http://127.0.0.1:${replicas[2]!.port}`, baseUrl, baseUrl, baseUrl]) {
      const res = await fetch(`${target}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sid },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_business', arguments: {} } }),
      });
      assert.equal(res.status, 200, target);
    }
  });

  it('complete a delivery on another replica when the one delivering dies', async () => {
    sub.hold = true;
    sub.heldClosed = false;
    const before = sub.count('/a');
    await importReviews(REVIEWS.slice(0, 7));
    assert.ok(await eventually(async () => sub.count('/a') === before + 1, 5000), 'first attempt reached the subscriber');
    sub.hold = false;
    // Kill replicas one at a time until the held connection drops: that one was delivering.
    let victim: Replica | undefined;
    let killedAt = 0;
    for (const r of replicas) {
      await kill(r);
      killedAt = Date.now();
      if (await eventually(async () => sub.heldClosed, 500, 20)) {
        victim = r;
        break;
      }
    }
    assert.ok(victim, 'found the delivering replica');
    if (replicas.every((r) => r.proc.exitCode !== null || r.proc.signalCode !== null)) {
      // It was the last one standing: bring another back to take the job over.
      replicas[0] = await startReplica(replicas[0]!.port);
    }
    assert.ok(await eventually(async () => sub.count('/a') === before + 2, 10_000), 'the delivery was retried by a surviving replica');
    const retry = sub.posts.filter((p) => p.path === '/a').at(-1)!;
    assert.ok(retry.at >= killedAt);
    assert.equal((JSON.parse(retry.body) as { reviews: unknown[] }).reviews.length, 7);
  });
});
