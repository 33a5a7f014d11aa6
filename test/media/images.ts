/**
 * Files with real headers of each accepted type (what the store reads: magic bytes and size in
 * pixels) and random bytes after them, so every call is a different file (a different SHA-256).
 */

const text = (s: string) => [...s].map((c) => c.charCodeAt(0));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const tail = (n = 64) => [...crypto.getRandomValues(new Uint8Array(n))];

export const imageFiles = {
  'image/png': (w = 3, h = 2) => new Uint8Array([0x89, ...text('PNG\r\n'), 0x1a, 0x0a, ...u32(13), ...text('IHDR'), ...u32(w), ...u32(h), 8, 6, 0, 0, 0, ...tail()]),
  'image/jpeg': (w = 640, h = 480) =>
    new Uint8Array([
      0xff,
      0xd8,
      0xff,
      0xe0,
      ...[0, 16],
      ...text('JFIF'),
      0,
      1,
      1,
      0,
      0,
      1,
      0,
      1,
      0,
      0,
      // A DQT segment before the frame, as real files have.
      0xff,
      0xdb,
      0,
      5,
      0,
      1,
      1,
      0xff,
      0xc0,
      0,
      17,
      8,
      (h >> 8) & 255,
      h & 255,
      (w >> 8) & 255,
      w & 255,
      3,
      1,
      0x22,
      0,
      2,
      0x11,
      1,
      3,
      0x11,
      1,
      ...tail(),
    ]),
  'image/gif': (w = 16, h = 9) => new Uint8Array([...text('GIF89a'), ...le16(w), ...le16(h), 0xf7, 0, 0, ...tail()]),
  'image/webp': (w = 800, h = 600) =>
    new Uint8Array([...text('RIFF'), ...le16(100), 0, 0, ...text('WEBPVP8X'), 10, 0, 0, 0, 0, 0, 0, 0, ...le24(w - 1), ...le24(h - 1), ...tail()]),
  'image/avif': (w = 1200, h = 900) =>
    new Uint8Array([
      ...u32(28),
      ...text('ftypavif'),
      ...u32(0),
      ...text('avifmif1miaf'),
      ...u32(40),
      ...text('meta'),
      0,
      0,
      0,
      0,
      ...u32(20),
      ...text('ispe'),
      0,
      0,
      0,
      0,
      ...u32(w),
      ...u32(h),
      ...tail(),
    ]),
};
export type ImageType = keyof typeof imageFiles;

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
