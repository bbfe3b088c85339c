/**
 * Import, startup and memory at N reviews. A JSON file of N reviews is imported with the CLI
 * into a fresh SQLite database (reviews/s); then the server starts over it (time and CPU to the
 * first 200 from /insights.json, so every document is built) and serves every dataset once; its
 * peak resident memory (VmHWM) is read from /proc. Then it is started again over the same
 * revision (the insights are loaded from the store, not analysed again): time, CPU and peak RSS.
 * With `--before DIR` (another tree, built: `main` as a baseline) the same is done with that
 * build too, before this one, each on its own database, and the table has both side by side.
 * CPU time and RSS hold on a loaded machine; wall time does not. Baseline: `cp` of the same file,
 * and the resident memory of a bare Node process holding the same reviews as parsed objects.
 * Targets: peak RSS <= 400 MB with 100k reviews; a restart serving every endpoint within 2 s.
 * Usage: npm run bench:import [-- reviews] [--before DIR]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { constants } from 'node:buffer';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliImport, writeBenchFile } from './lib/dataset.js';
import { InspectorSession } from './lib/inspector.js';
import { freePort, startService } from './lib/service.js';
import { markdownTable } from './lib/table.js';

const args = process.argv.slice(2);
const beforeAt = args.indexOf('--before');
const beforeDir = beforeAt >= 0 ? args.splice(beforeAt, 2)[1] : undefined;
const n = Number(args[0] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'rc-import-bench-'));
const file = join(dir, 'reviews.json');
writeBenchFile(file, n);
const ownRoot = fileURLToPath(new URL('..', import.meta.url));

const c0 = performance.now();
execFileSync('cp', [file, join(dir, 'copy.json')]);
const copyMs = performance.now() - c0;

interface Run {
  load: string;
  importMs: number;
  importPeak: number;
  startMs: number;
  startCpuMs: number;
  peak: number;
  settled: number;
  live: { rss: number; heapUsed: number; arrayBuffers: number };
  restartMs: number;
  restartCpuMs: number;
  restartPeak: number;
}

/**
 * One public origin for the import and both starts, as a deployment has: the published reviews'
 * bytes are kept per origin (the import makes them for BASE_URL), and without BASE_URL each
 * start's origin would name its own (free) port.
 */
const PUBLIC = { BASE_URL: 'https://reviews.example.com' };

const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function run(name: string, root: string): Promise<Run> {
  const database = join(dir, `${name}.db`);
  const before = load();
  const i0 = performance.now();
  const importPeak = cliImport(root, file, database, PUBLIC);
  const importMs = performance.now() - i0;

  const inspectPort = await freePort();
  const service = await startService(database, { ...PUBLIC, NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` }, root);
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

  const again = await startService(database, PUBLIC, root);
  const restart = { ms: again.startupMs, cpu: again.startupCpuMs, peak: again.peakRssMiB() };
  await again.stop();
  return { load: `${before} -> ${load()}`, importMs, importPeak, startMs: service.startupMs, startCpuMs: service.startupCpuMs, peak, settled, live, restartMs: restart.ms, restartCpuMs: restart.cpu, restartPeak: restart.peak };
}

const runs: [string, Run][] = [];
if (beforeDir) runs.push(['before', await run('before', beforeDir)]);
runs.push([beforeDir ? 'after' : 'value', await run('after', ownRoot)]);

// Baseline memory: a bare Node process holding the same reviews, parsed (when the file fits in one string).
const bareRss =
  statSync(file).size <= constants.MAX_STRING_LENGTH
    ? Number(spawnSync(process.execPath, ['-e', `const d=JSON.parse(require('fs').readFileSync(${JSON.stringify(file)},'utf8'));global.keep=d;console.log(process.memoryUsage().rss/1048576)`], { encoding: 'utf8' }).stdout.trim())
    : NaN;

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const row = (what: string, value: (r: Run) => string) => ({ what, ...Object.fromEntries(runs.map(([name, r]) => [name, value(r)])) });
const mb = (statSync(file).size / 2 ** 20).toFixed(0);
console.log(`\n${n.toLocaleString('en')} reviews, ${mb} MiB of JSON; cp of the file ${(copyMs / 1000).toFixed(2)} s; a bare Node process holding the parsed reviews: ${Number.isNaN(bareRss) ? 'not measured (the file is larger than one string can hold)' : `${bareRss.toFixed(0)} MiB`}\n`);
console.log(
  markdownTable([
    row('load average (1 / 5 / 15 min), start -> end of the run', (r) => r.load),
    row('CLI import (validate, plan, write SQLite; since 53e05fd also analyse and keep the insights)', (r) => `${s(r.importMs)} (${Math.round(n / (r.importMs / 1000)).toLocaleString('en')} reviews/s)`),
    row('peak RSS of the CLI import', (r) => `${r.importPeak.toFixed(0)} MiB`),
    row('first start to first /insights.json 200: wall, CPU', (r) => `${s(r.startMs)}, CPU ${s(r.startCpuMs)}`),
    row('peak RSS over the first start and serving every document (target <= 400 MB)', (r) => `${r.peak.toFixed(0)} MiB`),
    row('RSS after serving every document', (r) => `${r.settled.toFixed(0)} MiB`),
    row('... after a forced full GC', (r) => `${r.live.rss.toFixed(0)} MiB (heap ${r.live.heapUsed.toFixed(0)} live, buffers ${r.live.arrayBuffers.toFixed(0)})`),
    row('restart, same revision, to first /insights.json 200: wall, CPU (target <= 2 s)', (r) => `${s(r.restartMs)}, CPU ${s(r.restartCpuMs)}`),
    row('peak RSS of the restart', (r) => `${r.restartPeak.toFixed(0)} MiB`),
  ]),
);
