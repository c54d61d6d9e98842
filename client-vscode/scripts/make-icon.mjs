// Draws images/icon.png (256x256): a cairn of three stones on a teal tile.
// No dependencies: the pixels are computed here and written as a PNG with zlib.
// Run `node scripts/make-icon.mjs` after changing the drawing; the PNG is committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 256;
const SAMPLES = 4; // per axis, for anti-aliased edges

const background = [18, 92, 99];
const stones = [
  // centre x, centre y, radius x, radius y, colour
  { cx: 128, cy: 196, rx: 84, ry: 30, color: [222, 214, 196] },
  { cx: 122, cy: 141, rx: 62, ry: 25, color: [200, 190, 170] },
  { cx: 131, cy: 94, rx: 42, ry: 21, color: [236, 230, 216] },
];
const check = { color: [255, 196, 61] };

function insideTile(x, y) {
  const r = 44; // corner radius
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function insideEllipse(x, y, s) {
  return ((x - s.cx) / s.rx) ** 2 + ((y - s.cy) / s.ry) ** 2 <= 1;
}

// A thick check mark above the top stone: two segments.
function nearSegment(x, y, ax, ay, bx, by, width) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= width * width;
}
function insideCheck(x, y) {
  return nearSegment(x, y, 150, 44, 168, 60, 9) || nearSegment(x, y, 168, 60, 206, 20, 9);
}

function colourAt(x, y) {
  if (!insideTile(x, y)) {
    return null;
  }
  if (insideCheck(x, y)) {
    return check.color;
  }
  for (const stone of [...stones].reverse()) {
    if (insideEllipse(x, y, stone)) {
      // a little shading: darker towards the bottom of each stone
      const shade = 1 - 0.18 * Math.max(0, (y - stone.cy) / stone.ry);
      return stone.color.map((c) => Math.round(c * shade));
    }
  }
  return background;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const c = colourAt(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
        if (c !== null) {
          r += c[0]; g += c[1]; b += c[2]; a += 1;
        }
      }
    }
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    raw[o] = a ? Math.round(r / a) : 0;
    raw[o + 1] = a ? Math.round(g / a) : 0;
    raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((255 * a) / (SAMPLES * SAMPLES));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) {
    c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = new URL('../images/icon.png', import.meta.url);
writeFileSync(out, png);
console.log(`wrote ${out.pathname} (${png.length} bytes)`);
