import { crc32, deflateSync } from 'node:zlib';

/** An RGBA colour, each channel 0–255. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Encodes a square grid of cells (QR modules) as a 1-bit palette PNG of `size × size` pixels: `cellAt(col, row)`
 * says whether a cell of the `cells × cells` grid takes `on` (else `off`). Pixel p maps to cell
 * floor(p × cells / size), so cells differ by at most one pixel in width when the size is not a multiple.
 *
 * Why not the `qrcode` package's own PNG output: it paints a 32-bit RGBA bitmap and lets pngjs try five row filters
 * at deflate level 9, which takes ~0.7 s for a 2048 px code and blocks the event loop. Two colours need one bit
 * per pixel: the same image is 1/32 of the data and encodes in a few milliseconds.
 */
export function encodeGridPng(
  size: number,
  cells: number,
  on: Rgba,
  off: Rgba,
  cellAt: (col: number, row: number) => boolean,
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // colour type: indexed; compression, filter and interlace methods stay 0
  const palette = Buffer.from([off.r, off.g, off.b, on.r, on.g, on.b]);
  const transparent = off.a < 255 || on.a < 255;

  const cellOf = new Int32Array(size);
  for (let p = 0; p < size; p++) cellOf[p] = Math.floor((p * cells) / size);

  const stride = Math.ceil(size / 8) + 1; // one filter byte (0 = none) per row
  const raw = Buffer.alloc(stride * size);
  const row = new Uint8Array(stride);
  for (let y = 0; y < size; y++) {
    // Every pixel row of one module row is identical: build it once per module row.
    if (y === 0 || cellOf[y] !== cellOf[y - 1]) {
      row.fill(0);
      const cy = cellOf[y];
      for (let x = 0; x < size; x++) if (cellAt(cellOf[x], cy)) row[1 + (x >> 3)] |= 0x80 >> (x & 7);
    }
    raw.set(row, y * stride);
  }

  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('PLTE', palette),
    ...(transparent ? [chunk('tRNS', Buffer.from([off.a, on.a]))] : []),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
