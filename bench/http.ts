/**
 * Serving the datasets against nginx serving the very same bytes, at 1k, 10k and 100k reviews.
 * Our server runs as its own process (bin/reviewcast.js over a fresh SQLite database), nginx
 * from Debian's package with a generated config, and wrk drives both from a third process,
 * alternating runs so both see the same machine. Target: >= 0.9 x nginx throughput. A second
 * baseline, bare node:http answering from memory with the same bytes (bare-node-server.ts),
 * shows how much of the gap is Node itself and how much is ours. A third, "nginx in front of
 * reviewcast", is deploy/nginx.conf's cache before our server (target >= 0.9 x nginx from disk);
 * after the table a change is imported and timed until it shows through the cache, which must be
 * within the max-age our server declares.
 * Usage: npm run bench:http [-- seconds [sizes]]   e.g. npm run bench:http -- 3 1000,10000
 */
import { request } from 'undici';
import { benchDatabase, benchReviews } from './lib/dataset.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startBareNode } from './lib/bare-node.js';
import { startNginx, startNginxInFront } from './lib/nginx.js';
import { startService } from './lib/service.js';
import { meanLoad, wrk, type LoadResult } from './lib/load.js';
import { markdownTable } from './lib/table.js';

const seconds = Number(process.argv[2] ?? 3);
const sizes = (process.argv[3] ?? '1000,10000,100000').split(',').map(Number);
const ROUNDS = 2;
const CONNECTIONS = 32;
const PATHS = ['/reviews.json', '/api/feed.json', '/feed.xml'];

/** The bytes as sent: undici's request, unlike fetch, does not decode the content coding. */
async function fetchVariant(url: string, encoding: string) {
  const res = await request(url, { headers: { 'accept-encoding': encoding } });
  return { headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

const rows: Record<string, string | number>[] = [];
const visibility: string[] = [];

/** One review newer than any, written to the database as an import would (the server finds it by its file watch). */
async function importOneReview(db: string): Promise<void> {
  const store = openSqliteStore(db);
  const [newest] = benchReviews(1);
  await store.importReviews({ reviews: [{ ...newest!, id: '01KZZZZZZZZZZZZZZZZZZZZZZZ', date: '2099-01-01', text: 'A change to see through the cache.' }], replace: false, dryRun: false });
  await store.close();
}

/** Imports one new review and times how long until /api/feed.json through the cache shows it; the bound is our max-age. */
async function changeThroughCache(frontUrl: string, db: string): Promise<string> {
  const before = await fetch(`${frontUrl}/api/feed.json`);
  const maxAge = Number(/max-age=(\d+)/.exec(before.headers.get('cache-control') ?? '')?.[1]);
  const tag = before.headers.get('etag');
  await before.arrayBuffer();
  const started = Date.now();
  await importOneReview(db);
  for (;;) {
    const res = await fetch(`${frontUrl}/api/feed.json`);
    await res.arrayBuffer();
    if (res.headers.get('etag') !== tag) break;
    if (Date.now() - started > (maxAge + 30) * 1000) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const s = (Date.now() - started) / 1000;
  return `a new review visible through the cache after ${s.toFixed(1)} s (declared max-age ${maxAge} s): ${s <= maxAge + 1 ? 'met' : 'missed'}`;
}
for (const n of sizes) {
  const db = await benchDatabase(n);
  const ours = await startService(db);
  const files: Record<string, { body: Buffer; gzip: Buffer | null; type: string; etag: string }> = {};
  const ourTags = new Map<string, string>();
  for (const path of PATHS) {
    const plain = await fetchVariant(`${ours.url}${path}`, 'identity');
    const gz = await fetchVariant(`${ours.url}${path}`, 'gzip');
    files[path] = { body: plain.body, gzip: gz.headers['content-encoding'] === 'gzip' ? gz.body : null, type: String(plain.headers['content-type']), etag: String(plain.headers.etag) };
    ourTags.set(path, String(plain.headers.etag));
  }
  const nginx = await startNginx(files);
  const bare = await startBareNode(files);
  const front = await startNginxInFront(ours.url, PATHS[0]!);
  for (const path of PATHS) {
    const nginxTag = (await fetch(`${nginx.url}${path}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } })).headers.get('etag')!;
    const variants: { name: string; ours: Record<string, string>; base: Record<string, string> }[] = [
      { name: 'identity', ours: { 'accept-encoding': 'identity' }, base: { 'accept-encoding': 'identity' } },
      { name: 'gzip', ours: { 'accept-encoding': 'gzip' }, base: { 'accept-encoding': 'gzip' } },
      { name: '304', ours: { 'if-none-match': ourTags.get(path)! }, base: { 'if-none-match': nginxTag } },
    ];
    for (const v of variants) {
      const a: LoadResult[] = [];
      const b: LoadResult[] = [];
      const c: LoadResult[] = [];
      const d: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        d.push(wrk(`${front.url}${path}`, { seconds, connections: CONNECTIONS, headers: v.ours }));
        a.push(wrk(`${ours.url}${path}`, { seconds, connections: CONNECTIONS, headers: v.ours }));
        b.push(wrk(`${nginx.url}${path}`, { seconds, connections: CONNECTIONS, headers: v.base }));
        c.push(wrk(`${bare.url}${path}`, { seconds, connections: CONNECTIONS, headers: v.ours }));
      }
      const o = meanLoad(a);
      const g = meanLoad(b);
      const n0 = meanLoad(c);
      const f = meanLoad(d);
      const ratio = o.rps / g.rps;
      rows.push({
        reviews: n,
        path,
        variant: v.name,
        bytes: v.name === 'gzip' ? (files[path]!.gzip ?? files[path]!.body).length : v.name === '304' ? 0 : files[path]!.body.length,
        'ours req/s': Math.round(o.rps),
        'nginx req/s': Math.round(g.rps),
        ratio: ratio.toFixed(2),
        'bare node req/s': Math.round(n0.rps),
        'ours / bare node': (o.rps / n0.rps).toFixed(2),
        'nginx in front of reviewcast req/s': Math.round(f.rps),
        'in front / nginx from disk': (f.rps / g.rps).toFixed(2),
        'ours p50/p99 ms': `${o.p50ms.toFixed(2)} / ${o.p99ms.toFixed(2)}`,
        'nginx p50/p99 ms': `${g.p50ms.toFixed(2)} / ${g.p99ms.toFixed(2)}`,
        errors: o.errors + g.errors + n0.errors + f.errors,
        'target >= 0.9': ratio >= 0.9 ? 'met' : 'missed',
        'in front: target >= 0.9': f.rps / g.rps >= 0.9 ? 'met' : 'missed',
      });
      console.error(JSON.stringify(rows.at(-1)));
    }
  }
  if (n === sizes.at(-1)) visibility.push(await changeThroughCache(front.url, db));
  nginx.stop();
  bare.stop();
  front.stop();
  await ours.stop();
}
console.log(`\n${CONNECTIONS} connections, wrk 1 thread, ${ROUNDS} alternating runs of ${seconds}s per target\n`);
console.log(markdownTable(rows));
for (const line of visibility) console.log(`\n${line}`);
