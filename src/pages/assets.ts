/** Static assets: icon, stylesheet and scripts, compressed once at start. */
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

/** Static files: loaded and compressed once at start; they change only with a new release. */
export interface StaticAssets {
  css: Representation;
  reviewsJs: Representation;
  favicon: Representation;
  scalarJs: Representation;
  apiReferenceJs: Representation;
  /** The review widget (<reviewcast-reviews>), served at /widget.js for other sites to load. */
  widgetJs: Representation;
  embedJs: Representation;
  widgetBuilderJs: Representation;
}

let assets: StaticAssets | null = null;

export function staticAssets(): StaticAssets {
  if (assets) return assets;
  // The API reference renderer comes from npm (@scalar/api-reference) and is served from our own origin.
  const scalarPath = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
  assets = {
    css: buildRepresentation(readFileSync(new URL('site.css', PUBLIC)), 'text/css; charset=utf-8', STARTED),
    reviewsJs: buildRepresentation(readFileSync(new URL('reviews.js', PUBLIC)), 'text/javascript; charset=utf-8', STARTED),
    favicon: buildRepresentation(starIcon(), 'image/x-icon', STARTED),
    scalarJs: buildRepresentation(readFileSync(scalarPath), 'text/javascript; charset=utf-8', STARTED),
    apiReferenceJs: buildRepresentation(readFileSync(new URL('api-reference.js', PUBLIC)), 'text/javascript; charset=utf-8', STARTED),
    widgetJs: buildRepresentation(readFileSync(new URL('widget.js', PUBLIC)), 'text/javascript; charset=utf-8', STARTED),
    embedJs: buildRepresentation(readFileSync(new URL('embed.js', PUBLIC)), 'text/javascript; charset=utf-8', STARTED),
    widgetBuilderJs: buildRepresentation(readFileSync(new URL('widget-builder.js', PUBLIC)), 'text/javascript; charset=utf-8', STARTED),
  };
  return assets;
}
