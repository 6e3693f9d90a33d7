/**
 * Draws the add-in's ribbon and store icons (16, 32, 64, 80 px) as real PNGs with no image library:
 * `npx tsx assets/make-icons.ts`. The PNGs are committed; run this again only to change the design.
 * The design: a blue rounded tile holding a white 2x2 grid whose lower-right cell is green (a table
 * with a refreshed cell), readable at 16 px.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];
const BLUE: Rgba = [0x0f, 0x6c, 0xbd, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const GREEN: Rgba = [0x10, 0x7c, 0x41, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

function pixel(size: number, x: number, y: number): Rgba {
  const radius = Math.max(2, size / 8);
  const cx = Math.min(Math.max(x + 0.5, radius), size - radius);
  const cy = Math.min(Math.max(y + 0.5, radius), size - radius);
  if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 > radius ** 2) return CLEAR;
  const margin = Math.round(size * 0.2);
  const line = Math.max(1, Math.round(size / 16));
  const inside = x >= margin && x < size - margin && y >= margin && y < size - margin;
  if (!inside) return BLUE;
  const mid = Math.floor(size / 2);
  const onLine = Math.abs(x - mid + 0.5) < line || Math.abs(y - mid + 0.5) < line;
  if (onLine) return BLUE;
  return x > mid && y > mid ? GREEN : WHITE;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

export function png(size: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    for (let x = 0; x < size; x++) Buffer.from(pixel(size, x, y)).copy(raw, row + 1 + x * 4);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

if (require.main === module) {
  for (const size of [16, 32, 64, 80]) writeFileSync(join(__dirname, `icon-${size}.png`), png(size));
}
