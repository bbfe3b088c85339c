/**
 * Hub fan-out: 1,000 HTTPS subscribers, one change, time until the last one has the content.
 * Each subscriber has its own address (127.0.0.1 to 127.0.3.232, all loopback), so each is a
 * separate TLS connection as it would be on the internet. Our server runs as its own process
 * over a fresh SQLite database; the change is a CLI import of one review. Baseline, in the same
 * run: this process POSTing the same body to the same 1,000 callbacks with undici, 128 at a time
 * (the hub's batch size). Target: last delivery <= 5 s after the change.
 * Usage: npm run bench:hub [-- subscribers]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { makeTestCa } from '../test/websub-helpers.js';
import { benchDatabase, benchReviews } from './lib/dataset.js';
import { freePort, startService } from './lib/service.js';
import { percentile } from './lib/stats.js';
import { markdownTable } from './lib/table.js';

const subscribers = Number(process.argv[2] ?? 1000);
const ips = Array.from({ length: subscribers }, (_, i) => `127.0.${Math.floor((i + 1) / 256)}.${(i + 1) % 256}`);
const ca = await makeTestCa(ips);
const dir = mkdtempSync(join(tmpdir(), 'rc-hub-bench-'));
writeFileSync(join(dir, 'ca.pem'), ca.caCert);

// One HTTPS server on every loopback address: answers challenges, records when content arrives.
let verified = 0;
const arrived = new Map<string, number>();
const port = await freePort();
const server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
  const url = new URL(req.url!, 'https://x');
  if (req.method === 'GET') {
    verified++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(url.searchParams.get('hub.challenge'));
    return;
  }
  req.resume();
  req.on('end', () => {
    if (!arrived.has(url.pathname)) arrived.set(url.pathname, performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => server.listen(port, '0.0.0.0', r));
const callbacks = ips.map((ip, i) => `https://${ip}:${port}/cb/${i}`);

const database = await benchDatabase(1000);
const service = await startService(database, {
  NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
  HUB_ALLOW_PRIVATE_CALLBACKS: 'true',
  HUB_MAX_SUBSCRIPTIONS_PER_HOST: String(subscribers * 2),
  HUB_MAX_SUBSCRIPTIONS_PER_CLIENT: String(subscribers * 2),
  HUB_RATE_LIMIT_PER_MINUTE: String(subscribers * 10),
});
const hubTopic = `${service.url}/feed.xml`;
for (const callback of callbacks) {
  const res = await fetch(`${service.url}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': hubTopic, 'hub.callback': callback }),
  });
  if (res.status !== 202) throw new Error(`subscribe answered ${res.status}: ${await res.text()}`);
}
const v0 = performance.now();
while (verified < subscribers) await new Promise((r) => setTimeout(r, 50));
const verifyMs = performance.now() - v0;
// Let the last verifications commit before the change.
await new Promise((r) => setTimeout(r, 1500));

const review = { ...benchReviews(1)[0]!, id: '01KZZZZZZZZZZZZZZZZZZZZZZZ', date: '2026-11-21', text: 'A new review for the fan-out benchmark. On time and tidy.' };
writeFileSync(join(dir, 'one.json'), JSON.stringify([review]));
const bin = fileURLToPath(new URL('../bin/reviewcast.js', import.meta.url));
execFileSync(process.execPath, [bin, 'import', join(dir, 'one.json')], { env: { ...process.env, DATABASE_URL: database }, stdio: 'ignore' });
const changed = performance.now();
while (arrived.size < subscribers) await new Promise((r) => setTimeout(r, 10));
const times = [...arrived.values()].map((t) => t - changed).sort((a, b) => a - b);
const body = Buffer.from(await (await fetch(`${service.url}/feed.xml`)).arrayBuffer());
await service.stop();

// Baseline: the same body to the same callbacks, straight from this process.
const agent = new Agent({ connect: { ca: ca.caCert } });
const b0 = performance.now();
for (let i = 0; i < callbacks.length; i += 128) {
  await Promise.all(
    callbacks.slice(i, i + 128).map(async (cb) => {
      const res = await request(cb, { method: 'POST', body, headers: { 'content-type': 'application/atom+xml' }, dispatcher: agent });
      await res.body.dump();
    }),
  );
}
const baselineMs = performance.now() - b0;
await agent.close();
server.close();

console.log(`\n${subscribers} HTTPS subscribers on ${subscribers} loopback addresses; verification of all took ${(verifyMs / 1000).toFixed(1)} s\n`);
console.log(
  markdownTable([
    { what: 'reviewcast hub: change committed to first delivery', ms: Math.round(percentile(times, 0)) },
    { what: 'reviewcast hub: to half delivered', ms: Math.round(percentile(times, 50)) },
    { what: `reviewcast hub: to last delivered (target <= 5000)`, ms: Math.round(times.at(-1)!) },
    { what: 'baseline: undici POSTs of the same body, 128 at a time', ms: Math.round(baselineMs) },
  ]),
);
console.log(`\ntarget <= 5 s: ${times.at(-1)! <= 5000 ? 'met' : 'missed'}`);
