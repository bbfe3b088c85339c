/** Static assets: icon, stylesheet and scripts, compressed once at start. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildRepresentation, type Representation } from '../snapshot/representation.js';

/** A 16x16 icon (a gold star on navy), drawn here so the project ships no binary file. */
function starIcon(): Buffer {
  const size = 16;
  const pixels = Buffer.alloc(size * size * 4);
  const inStar = (x: number, y: number): boolean => {
    // Point-in-polygon against a five-pointed star centred in the square.
    const pts: [number, number][] = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 === 0 ? 7.5 : 3.2;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      pts.push([8 + r * Math.cos(a), 8.4 + r * Math.sin(a)]);
    }
    let inside = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i]!;
      const [xj, yj] = pts[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      // BMP rows run bottom-up; pixels are BGRA.
      const o = ((size - 1 - row) * size + col) * 4;
      const star = inStar(col + 0.5, row + 0.5);
      pixels.set(star ? [0x2b, 0xb6, 0xf5, 0xff] : [0x4b, 0x29, 0x13, 0xff], o);
    }
  }
  const header = Buffer.alloc(6 + 16 + 40);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  const mask = Buffer.alloc(size * 4);
  header.writeUInt32LE(40 + pixels.length + mask.length, 14);
  header.writeUInt32LE(22, 18);
  header.writeUInt32LE(40, 22);
  header.writeInt32LE(size, 26);
  header.writeInt32LE(size * 2, 30);
  header.writeUInt16LE(1, 34);
  header.writeUInt16LE(32, 36);
  return Buffer.concat([header, pixels, mask]);
}

const PUBLIC = new URL('../../public/', import.meta.url);
const STARTED = new Date();

/** The stylesheet and scripts, by the name they are served under in /assets/. */
const FILES = {
  'site.css': { type: 'text/css; charset=utf-8', from: () => new URL('site.css', PUBLIC) },
  'reviews.js': { type: 'text/javascript; charset=utf-8', from: () => new URL('reviews.js', PUBLIC) },
  // The API reference renderer comes from npm (@scalar/api-reference) and is served from our own origin.
  'scalar.js': { type: 'text/javascript; charset=utf-8', from: () => createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js') },
  'api-reference.js': { type: 'text/javascript; charset=utf-8', from: () => new URL('api-reference.js', PUBLIC) },
  'copy.js': { type: 'text/javascript; charset=utf-8', from: () => new URL('copy.js', PUBLIC) },
  // The review widget (<reviewcast-reviews>); other sites load it from the plain /widget.js, so it is not fingerprinted there.
  'widget.js': { type: 'text/javascript; charset=utf-8', from: () => new URL('widget.js', PUBLIC) },
  'embed.js': { type: 'text/javascript; charset=utf-8', from: () => new URL('embed.js', PUBLIC) },
  'widget-builder.js': { type: 'text/javascript; charset=utf-8', from: () => new URL('widget-builder.js', PUBLIC) },
} as const;
export type AssetName = keyof typeof FILES;
export const ASSET_NAMES = Object.keys(FILES) as AssetName[];

interface Loaded {
  bytes: Buffer;
  url: string;
  rep?: Representation;
}
const loaded = new Map<AssetName, Loaded>();

function load(name: AssetName): Loaded {
  let entry = loaded.get(name);
  if (!entry) {
    const bytes = readFileSync(FILES[name].from());
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    const dot = name.lastIndexOf('.');
    entry = { bytes, url: `/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}` };
    loaded.set(name, entry);
  }
  return entry;
}

/**
 * The fingerprinted address of an asset (`/assets/site.<hash>.css`): its content hash is in the
 * path, so it can be cached for a year and a release with other content gets another address.
 */
export function assetUrl(name: AssetName): string {
  return load(name).url;
}

/** An asset's body, compressed on first use (the scripts are large, and most processes never serve Scalar's). */
export function assetRepresentation(name: AssetName): Representation {
  const entry = load(name);
  entry.rep ??= buildRepresentation(entry.bytes, FILES[name].type, STARTED);
  return entry.rep;
}

let icon: Representation | null = null;

export function favicon(): Representation {
  icon ??= buildRepresentation(starIcon(), 'image/x-icon', STARTED);
  return icon;
}
