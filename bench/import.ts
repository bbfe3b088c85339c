/**
 * Import, startup and memory at N reviews. A JSON file of N reviews is imported with the CLI
 * into a fresh SQLite database (reviews/s); then the server starts over it (time to the first
 * 200 from /insights.json, so every document is built) and serves every dataset once; its
 * peak resident memory (VmHWM) is read from /proc. Then it is started again over the same
 * revision (the insights are loaded from the store, not analysed again). Baseline: `cp` of the same file, and the
 * resident memory of a bare Node process holding the same reviews as parsed objects.
 * Targets: peak RSS <= 400 MB with 100k reviews; a restart serving every endpoint within 2 s.
 * Usage: npm run bench:import [-- reviews]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_BUSINESS } from '../src/core/demo/business.js';
import { benchReviews } from './lib/dataset.js';
import { InspectorSession } from './lib/inspector.js';
import { freePort, startService } from './lib/service.js';
import { markdownTable } from './lib/table.js';

const n = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'rc-import-bench-'));
const file = join(dir, 'reviews.json');
writeFileSync(file, JSON.stringify({ business: DEMO_BUSINESS, reviews: benchReviews(n) }));
const database = join(dir, 'bench.db');
const bin = fileURLToPath(new URL('../bin/reviewcast.js', import.meta.url));

const c0 = performance.now();
execFileSync('cp', [file, join(dir, 'copy.json')]);
const copyMs = performance.now() - c0;

const i0 = performance.now();
execFileSync(process.execPath, [bin, 'import', file], { env: { ...process.env, DATABASE_URL: database }, stdio: 'ignore' });
const importMs = performance.now() - i0;

const inspectPort = await freePort();
const service = await startService(database, { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` });
for (const path of ['/reviews.json', '/api/feed.json', '/feed.xml', '/insights.json', '/api/reviews/search?query=on%20time']) {
  const res = await fetch(`${service.url}${path}`, { headers: { 'accept-encoding': 'br' } });
  await res.arrayBuffer();
}
const peak = service.peakRssMiB();
const settled = service.rssMiB();
// What stays once garbage is gone: live heap, and what the process still holds.
const inspector = await InspectorSession.connect(inspectPort);
const live = await inspector.memoryAfterGc();
inspector.close();
await service.stop();

const again = await startService(database);
const restartMs = again.startupMs;
await again.stop();

// Baseline memory: a bare Node process holding the same reviews, parsed.
const bare = spawnSync(process.execPath, ['-e', `const d=JSON.parse(require('fs').readFileSync(${JSON.stringify(file)},'utf8'));global.keep=d;console.log(process.memoryUsage().rss/1048576)`], { encoding: 'utf8' });
const bareRss = Number(bare.stdout.trim());

const mb = (statSync(file).size / 2 ** 20).toFixed(0);
console.log(`\n${n.toLocaleString('en')} reviews, ${mb} MiB of JSON\n`);
console.log(
  markdownTable([
    { what: 'CLI import (validate, plan, write SQLite)', value: `${(importMs / 1000).toFixed(1)} s`, rate: `${Math.round(n / (importMs / 1000)).toLocaleString('en')} reviews/s` },
    { what: 'baseline: cp of the same file', value: `${(copyMs / 1000).toFixed(2)} s`, rate: '' },
    { what: 'server startup to first /insights.json 200', value: `${(service.startupMs / 1000).toFixed(1)} s`, rate: '' },
    { what: 'server restart, same revision, to first /insights.json 200 (target <= 2 s)', value: `${(restartMs / 1000).toFixed(1)} s`, rate: restartMs <= 2000 ? 'met' : 'missed' },
    { what: 'server peak RSS (target <= 400 MB)', value: `${peak.toFixed(0)} MiB`, rate: peak * 1.048576 <= 400 ? 'met' : 'missed' },
    { what: 'server RSS after serving every document', value: `${settled.toFixed(0)} MiB`, rate: '' },
    { what: '... after a forced full GC', value: `${live.rss.toFixed(0)} MiB`, rate: `heap ${live.heapUsed.toFixed(0)} MiB live, buffers ${live.arrayBuffers.toFixed(0)} MiB` },
    { what: 'baseline: bare Node holding the parsed reviews', value: `${bareRss.toFixed(0)} MiB`, rate: '' },
  ]),
);
