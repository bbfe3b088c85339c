// deploy/reviewcast@.service with SQLite: the folder operations.md puts the database in is writable under the unit's sandbox, -wal and -shm files included.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { builtCli, freePort, ROOT } from './helpers.js';
import { waitUntilServing } from './serve.js';

const UNIT = readFileSync(join(ROOT, 'deploy/reviewcast@.service'), 'utf8');
const OPERATIONS = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

/** Every value of a setting in the unit, in order (a setting may be given more than once). */
function settings(name: string): string[] {
  return [...UNIT.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());
}

/** The folders ReadWritePaths= opens for writing; a leading - (skip it when missing) is not part of the path. */
const readWritePaths = settings('ReadWritePaths').flatMap((v) => v.split(/\s+/)).map((p) => p.replace(/^-/, ''));

/** The SQLite file the unit's comment has DATABASE_URL name. */
const unitDatabase = /^#.*DATABASE_URL='(\/[^']+\.db)'/m.exec(UNIT)?.[1];

/**
 * Why the sandbox can not be rebuilt here, or false: it takes a mount namespace of our own
 * (unshare, as root), in which the unit's file-system settings are applied as systemd applies them.
 */
function namespacesMissing(): string | false {
  if (process.getuid?.() !== 0) return 'the sandbox trial mounts file systems in a namespace of its own, which takes root';
  const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']);
  return probe.status === 0 ? false : `unshare --mount failed (${probe.error?.message ?? probe.stderr.toString().trim()})`;
}

/**
 * The unit's file-system sandbox, rebuilt in a private mount namespace, then the command: the
 * database's parent folder is a fresh tmpfs (the host's is never touched) in which the folder is
 * made as the unit's comment says, and the checkout is bound in beside it as the release it runs
 * (a checkout under /tmp would be hidden by the private /tmp); ProtectSystem=strict turns every
 * writable mount but /proc, /sys and /dev read-only; each ReadWritePaths= folder is bound writable
 * again; PrivateTmp=true gives a private /tmp and /var/tmp.
 */
const SANDBOX = `set -e
mount -t tmpfs tmpfs "$PARENT"
install -d -m 750 "$FOLDER"
mkdir "$PARENT/release"
mount --bind "$CHECKOUT" "$PARENT/release"
for m in $(awk '$6 ~ /(^|,)rw(,|$)/ {print $5}' /proc/self/mountinfo); do
  case "$m" in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) ;; *) mount -o remount,bind,ro "$m" ;; esac
done
for p in $READ_WRITE; do mount --bind "$p" "$p"; mount -o remount,bind,rw "$p"; done
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /var/tmp
cd "$PARENT/release"
exec "$@"`;

/** `reviewcast serve` on the unit's SQLite file inside the sandbox, with the writable folders given. */
async function serveSandboxed(readWrite: string[]) {
  const port = await freePort();
  const parent = dirname(dirname(unitDatabase!));
  const cli = join(parent, 'release', relative(ROOT, builtCli()));
  const child = spawn('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', SANDBOX, 'sandbox', process.execPath, cli, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PARENT: parent, FOLDER: dirname(unitDatabase!), CHECKOUT: ROOT, READ_WRITE: readWrite.join(' '), DATABASE_URL: unitDatabase!, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | NodeJS.Signals>((r) => child.once('exit', (code, signal) => r(code ?? signal!)));
  return { url: `http://127.0.0.1:${port}`, child, exited, output: () => output };
}

describe('deploy/reviewcast@.service with SQLite', () => {
  it('opens for writing the folder operations.md and the unit put the database in, and nothing else in the unit closes it', () => {
    const documented = new Set([...OPERATIONS.matchAll(/\/var\/lib\/[\w./-]+?\.db\b/g)].map((m) => m[0]));
    assert.deepEqual([...documented], [unitDatabase], 'operations.md names one SQLite file, the one the unit comment sets DATABASE_URL to');
    assert.equal(settings('ProtectSystem')[0], 'strict', 'the sandbox this setting is for');
    // The folder, not the file: SQLite makes the -wal and -shm files beside the database.
    assert.ok(readWritePaths.includes(dirname(unitDatabase!)), `ReadWritePaths= ${readWritePaths.join(' ')} opens ${dirname(unitDatabase!)}`);
    const entry = settings('ReadWritePaths').flatMap((v) => v.split(/\s+/)).find((p) => p.replace(/^-/, '') === dirname(unitDatabase!));
    assert.equal(entry, `-${dirname(unitDatabase!)}`, 'a replica on PostgreSQL has no such folder: the - lets it start');
    // What else would make the folder read-only or hide it, or (DynamicUser) run the service as a user that does not own it.
    for (const closing of ['ReadOnlyPaths', 'InaccessiblePaths', 'TemporaryFileSystem', 'DynamicUser']) assert.deepEqual(settings(closing), [], closing);
    assert.match(OPERATIONS, /ReadWritePaths=/, 'operations.md says where the unit lets the service write');
  });

  it('systemd-analyze verify finds nothing to say of the unit', { skip: existsSync('/usr/bin/systemd-analyze') ? false : 'systemd-analyze is not installed' }, () => {
    // An instance name is needed for a template; systemd reads the file through it.
    const res = spawnSync('systemd-analyze', ['verify', join(ROOT, 'deploy/reviewcast@3001.service')], { encoding: 'utf8' });
    // What it says of the file itself (a misspelt key, a bad value), not of this machine (no node at /usr/bin/node, no such user).
    const said = `${res.stdout}${res.stderr}`.split('\n').filter((l) => /ignoring|unknown|invalid|not absolute|failed to parse/i.test(l));
    assert.deepEqual(said, []);
  });

  const skip = namespacesMissing();
  it('serve under the unit sandbox writes the database, its -wal and its -shm, and answers /healthz', { skip, timeout: 60_000 }, async () => {
    const proc = await serveSandboxed(readWritePaths);
    try {
      await waitUntilServing(`${proc.url}/healthz`, proc.child, 30_000).catch((err: Error) => assert.fail(`${err.message}\n${proc.output()}`));
      // The namespace's view of the folder, through the process's own root.
      const folder = `/proc/${proc.child.pid}/root${dirname(unitDatabase!)}`;
      for (const file of ['', '-wal', '-shm']) assert.ok(existsSync(`${folder}/reviews.db${file}`), `reviews.db${file}`);
    } finally {
      proc.child.kill('SIGTERM');
    }
    assert.equal(await proc.exited, 0, proc.output());
  });

  it('the same sandbox without ReadWritePaths= (the unit before it): the store can not be opened, exit 3, one line naming it', { skip, timeout: 60_000 }, async () => {
    const proc = await serveSandboxed([]);
    assert.equal(await proc.exited, 3, proc.output());
    assert.equal(proc.output().trim(), `reviewcast: cannot open the store at DATABASE_URL=${unitDatabase}: unable to open database file`);
  });
});
