/** A digest of the code that makes what a revision keeps in the store (insights, published bytes): another build, another key. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../version.js';

/**
 * Hashes every file under the given folders (source maps aside, in a fixed order) with the
 * release's version. What the store keeps for a revision is made by the core and this layer
 * alone, so a change to either (a FAQ wording, a gzip level) makes a new key and a restart after
 * an upgrade does not serve what the old code made; a change elsewhere keeps the key.
 */
export function buildDigest(folders: readonly URL[], version = VERSION): string {
  const hash = createHash('sha256').update(version);
  for (const folder of folders) {
    const root = fileURLToPath(folder);
    const files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.map'))
      .map((e) => join(relative(root, e.parentPath), e.name))
      .sort();
    for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  }
  return hash.digest('base64url').slice(0, 22);
}

/** The digest of this build's core and snapshot layers, read once per process. */
export const BUILD_DIGEST = buildDigest([new URL('../core/', import.meta.url), new URL('./', import.meta.url)]);

let release: string | undefined;

/**
 * The digest of this whole build (every layer, not only those that key what is kept): what
 * /healthz, /metrics and the start-up line call `build`, so two builds of one release differing
 * anywhere (an HTTP or MCP fix) are told apart during a rollout. Read when first asked.
 */
export function releaseBuild(): string {
  return (release ??= buildDigest([new URL('../', import.meta.url)]));
}
