// Demo pictures for `npm run dev`: a PNG per product (a soft background with a disc, colours taken
// from the product's name), uploaded through the API like any image, so the seeded catalogue shows
// media stored in the local R2 bucket. Encoded here (zlib + CRC-32) to keep binary files out of the repository.

import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** `#rrggbb`-like [r, g, b] from a hue (0-360), saturation and lightness (0-1). */
function hsl(h, s, l) {
  const a = s * Math.min(l, 1 - l);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

const hueOf = (text) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);

/** A size × size PNG for `name`: background, a disc, and a shadow under it. */
export function productPng(name, size = 480) {
  const hue = hueOf(name);
  const background = hsl(hue, 0.45, 0.92);
  const disc = hsl((hue + 35) % 360, 0.55, 0.55);
  const shadow = hsl(hue, 0.25, 0.8);
  const raw = Buffer.alloc((size * 3 + 1) * size);
  const c = size / 2;
  const r = size * 0.3;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const inDisc = (x - c) ** 2 + (y - c * 0.9) ** 2 <= r * r;
      const inShadow = ((x - c) / (r * 1.1)) ** 2 + ((y - size * 0.82) / (r * 0.18)) ** 2 <= 1;
      const [R, G, B] = inDisc ? disc : inShadow ? shadow : background;
      raw.set([R, G, B], row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Uploads one picture to each product through POST /api/products/{id}/media; returns how many were stored. */
export async function uploadSeedImages(base, key, products) {
  let stored = 0;
  for (const product of products) {
    const response = await fetch(`${base}/api/products/${product.id}/media?alt=${encodeURIComponent(product.name)}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'image/png' },
      body: productPng(product.name),
    });
    if (response.status !== 201) throw new Error(`POST /api/products/${product.id}/media answered ${response.status}: ${await response.text()}`);
    stored++;
  }
  return stored;
}
