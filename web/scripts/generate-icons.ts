// Writes the PWA icons in web/public (a USDC coin on the primary colour).
// Run once with `bun web/scripts/generate-icons.ts`; the PNGs are committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

const PRIMARY: Rgb = [0x63, 0x66, 0xf1];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const SAMPLES = 4; // supersampling per axis, for smooth edges

// Note: everything drawn stays inside the central 60% so the same picture is a
// valid maskable icon (the safe zone is a circle of 40% radius).
function colourAt(x: number, y: number): Rgb {
  const r = Math.hypot(x - 0.5, y - 0.5);
  if (r > 0.3) return PRIMARY;
  if (r > 0.24) return WHITE;
  // A "$": a vertical bar and an S made of two open rings.
  if (Math.abs(x - 0.5) < 0.022 && Math.abs(y - 0.5) < 0.16) return WHITE;
  return inRing(x, y, 0.435, (dx, dy) => dx > 0 && dy > -0.02) ||
    inRing(x, y, 0.565, (dx, dy) => dx < 0 && dy < 0.02)
    ? WHITE
    : PRIMARY;
}

// A ring of the S centred at (0.5, cy), minus the gap the predicate selects.
function inRing(x: number, y: number, cy: number, gap: (dx: number, dy: number) => boolean) {
  const r = Math.hypot(x - 0.5, y - cy);
  return r > 0.045 && r < 0.087 && !gap(x - 0.5, y - cy);
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** Encodes a square RGB PNG of `size` pixels. */
function renderIcon(size: number): Buffer {
  const rows = Buffer.alloc(size * (size * 3 + 1));
  for (let py = 0; py < size; py++) {
    const row = py * (size * 3 + 1);
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const c = colourAt(
            (px + (sx + 0.5) / SAMPLES) / size,
            (py + (sy + 0.5) / SAMPLES) / size,
          );
          for (let i = 0; i < 3; i++) sum[i] = (sum[i] ?? 0) + c[i as 0 | 1 | 2];
        }
      }
      for (let i = 0; i < 3; i++) {
        rows[row + 1 + px * 3 + i] = Math.round((sum[i] ?? 0) / SAMPLES ** 2);
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

const publicDir = new URL('../public/', import.meta.url);
for (const [name, size] of [
  ['pwa-192x192.png', 192],
  ['pwa-512x512.png', 512],
  ['apple-touch-icon-180x180.png', 180],
] as const) {
  writeFileSync(new URL(name, publicDir), renderIcon(size));
}
