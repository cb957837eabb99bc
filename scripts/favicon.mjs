// The service's icon: widget/favicon.svg for pages that link it, and /favicon.ico (which browsers
// ask for on their own) drawn here as the same mark, a 32x32 PNG inside an ICO, so no page 404s.
import { deflateSync } from "node:zlib";

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** RGBA of pixel (x, y): a filled disc with a white ring, as in favicon.svg. */
function pixel(x, y) {
  const d = Math.hypot(x + 0.5 - 16, y + 0.5 - 16);
  if (d > 15) return [0, 0, 0, 0];
  return Math.abs(d - 9) <= 1.25 ? [255, 255, 255, 255] : [0xb4, 0x46, 0x2b, 255];
}

export function faviconIco(size = 32) {
  const rows = [];
  for (let y = 0; y < size; y++)
    rows.push(Buffer.from([0, ...Array.from({ length: size }, (_, x) => pixel(x, y)).flat()]));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  const dir = Buffer.alloc(22);
  dir.writeUInt16LE(1, 2); // an icon
  dir.writeUInt16LE(1, 4); // one image
  dir.set([size, size, 0, 0], 6);
  dir.writeUInt16LE(1, 10);
  dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(png.length, 14);
  dir.writeUInt32LE(22, 18);
  return Buffer.concat([dir, png]);
}
