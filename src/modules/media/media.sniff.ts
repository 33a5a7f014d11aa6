/**
 * What a file is, from its first bytes rather than from what the uploader declared: the image types
 * the store accepts with their size in pixels when the header gives it, or a name for what was found
 * instead, for the 415's message.
 */

import { MEDIA_TYPES, type MediaType } from '../../db/schema';

export { MEDIA_TYPES, type MediaType };

export const EXTENSION: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

export type Sniffed = { type: MediaType; width: number | null; height: number | null } | { type: null; found: string };

const ascii = (b: Uint8Array, from: number, length: number) => String.fromCharCode(...b.subarray(from, from + length));
const startsWith = (b: Uint8Array, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const le16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const le24 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);

type Size = { width: number; height: number } | null;

function jpegSize(b: Uint8Array): Size {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: be16(b, i + 5), width: be16(b, i + 7) };
    }
    if (marker === 0xda) return null; // scan data: no frame header before it
    i += 2 + be16(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): Size {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return { width: 1 + (((b1 & 0x3f) << 8) | b0), height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)) };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: 1 + le24(b, 24), height: 1 + le24(b, 27) };
  return null;
}

/** The `ispe` (image spatial extent) property of the primary item, when it is in the first 64 KiB. */
function avifSize(b: Uint8Array): Size {
  const end = Math.min(b.length - 16, 65536);
  for (let i = 4; i < end; i++) {
    if (b[i] === 0x69 && ascii(b, i, 4) === 'ispe') return { width: be32(b, i + 8), height: be32(b, i + 12) };
  }
  return null;
}

/** The brands of an ISO-BMFF `ftyp` box (AVIF, HEIC, MP4), or null when the file does not start with one. */
function ftypBrands(b: Uint8Array): string[] | null {
  if (b.length < 16 || ascii(b, 4, 4) !== 'ftyp') return null;
  const size = Math.min(be32(b, 0), b.length);
  const brands = [ascii(b, 8, 4)];
  for (let i = 16; i + 4 <= size; i += 4) brands.push(ascii(b, i, 4));
  return brands;
}

const image = (type: MediaType, size: Size): Sniffed => ({ type, width: size?.width ?? null, height: size?.height ?? null });

/** Names of common files that are not accepted images, for the error message. */
function otherType(b: Uint8Array): string {
  const brands = ftypBrands(b);
  if (brands?.some((x) => ['heic', 'heix', 'mif1', 'msf1'].includes(x))) return 'image/heic';
  if (brands) return 'video/mp4';
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46])) return 'application/pdf';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (startsWith(b, [0x42, 0x4d])) return 'image/bmp';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(b, [0x00, 0x00, 0x01, 0x00])) return 'image/x-icon';
  const text = new TextDecoder().decode(b.subarray(0, 512)).trimStart().toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'image/svg+xml';
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'text/html';
  if (text.startsWith('{') || text.startsWith('[')) return 'application/json';
  if (!b.length) return 'an empty file';
  const hex = [...b.subarray(0, 8)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  return `unrecognised bytes (${hex})`;
}

export function sniff(b: Uint8Array): Sniffed {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return image('image/jpeg', jpegSize(b));
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return image('image/png', b.length >= 24 && ascii(b, 12, 4) === 'IHDR' ? { width: be32(b, 16), height: be32(b, 20) } : null);
  }
  if (b.length >= 10 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return image('image/gif', { width: le16(b, 6), height: le16(b, 8) });
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return image('image/webp', webpSize(b));
  if (ftypBrands(b)?.some((x) => x === 'avif' || x === 'avis')) return image('image/avif', avifSize(b));
  return { type: null, found: otherType(b) };
}
