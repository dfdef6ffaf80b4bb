import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import type { QrLook } from '../../core/qr-design.ts';

/**
 * A QR code's modules drawn as a PNG or an SVG. Every module of a PNG is the same whole number of
 * pixels (a code with modules of 1 and 2 pixels side by side misreads at small sizes), and its quiet
 * zone is exactly the margin asked: the side is the multiple of the modules nearest the width asked,
 * so with margin 0 the finder patterns touch the edges. Colours arrive as `#rrggbb`, checked by
 * core/qr-design.ts.
 */

export interface QrModules {
  /** Modules per side. */
  size: number;
  /** Row after row, 1 for a dark module. */
  data: Uint8Array;
}

export function qrModules(text: string, look: QrLook): QrModules {
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: look.ecc }).modules;
  return { size, data };
}

/**
 * Where the modules go in a square about `width` pixels wide: the code and its margin at the whole
 * number of pixels per module nearest the width (at least one), so the side is that many times the
 * modules and the margin together — a little under or over the width asked (docs/api.md §16).
 */
export function pngLayout(modules: number, width: number, margin: number) {
  const total = modules + 2 * margin;
  const scale = Math.max(1, Math.round(width / total));
  return { side: total * scale, scale, offset: margin * scale };
}

const rgb = (colour: string) => [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16));

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}

/** One bit per pixel over a two-colour palette: the smallest PNG a code makes, and quick to deflate. */
export function drawPng(modules: QrModules, width: number, look: QrLook): Uint8Array {
  const { side, scale, offset } = pngLayout(modules.size, width, look.margin);
  const stride = 1 + Math.ceil(side / 8);
  const raw = Buffer.alloc(stride * side);
  for (let row = 0; row < modules.size; row++) {
    const line = Buffer.alloc(stride);
    for (let column = 0; column < modules.size; column++) {
      if (!modules.data[row * modules.size + column]) continue;
      for (let x = offset + column * scale; x < offset + (column + 1) * scale; x++) {
        line[1 + (x >> 3)] = (line[1 + (x >> 3)] ?? 0) | (0x80 >> (x & 7));
      }
    }
    for (let y = offset + row * scale; y < offset + (row + 1) * scale; y++) line.copy(raw, y * stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 3, 0, 0, 0], 8); // bit depth 1, palette, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from([...rgb(look.bg), ...rgb(look.fg)])),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A standalone SVG: one background rectangle, then one path of the dark modules, a rectangle per run
 * of them along a row. Its viewBox counts modules, so the margin is exact at any size.
 */
export function drawSvg(modules: QrModules, width: number, look: QrLook): string {
  const { size, data } = modules;
  const total = size + 2 * look.margin;
  const runs: string[] = [];
  for (let row = 0; row < size; row++) {
    let column = 0;
    while (column < size) {
      if (!data[row * size + column]) {
        column++;
        continue;
      }
      const start = column;
      while (column < size && data[row * size + column]) column++;
      const length = column - start;
      runs.push(`M${start + look.margin} ${row + look.margin}h${length}v1h-${length}z`);
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${width}" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges">` +
    `<rect width="${total}" height="${total}" fill="${look.bg}"/><path fill="${look.fg}" d="${runs.join('')}"/></svg>\n`
  );
}
