import { ApiError } from '../../lib/errors';
import type { AppRouteHandler } from '../../lib/openapi';
import { IMMUTABLE } from '../products';
import type * as routes from './media.routes';

/**
 * GET /media/{key}: the stored file, straight from R2 with its conditional and range handling. Keys
 * are content hashes, so a response never goes stale: cached a year as immutable.
 */

const KEY = /^[0-9a-f]{64}\.(jpg|png|webp|avif|gif)$/;

/** One `bytes=` range as R2 takes it; anything else (several ranges, other units) is served whole. */
function byteRange(header: string | undefined): R2Range | undefined {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (!match[1] && !match[2])) return undefined;
  const [, first, last] = match;
  if (!first) return { suffix: Number(last) };
  const offset = Number(first);
  if (!last) return { offset };
  if (Number(last) < offset) return undefined;
  return { offset, length: Number(last) - offset + 1 };
}

export const getMediaFile: AppRouteHandler<typeof routes.getMediaFile> = async (c) => {
  const { key } = c.req.valid('param');
  if (!KEY.test(key)) throw ApiError.notFound('Media file', key);
  const bucket = c.env.MEDIA;
  const range = byteRange(c.req.header('Range'));
  let object: R2Object | R2ObjectBody | null;
  try {
    object = await bucket.get(key, { onlyIf: c.req.raw.headers, ...(range ? { range } : {}) });
  } catch (error) {
    // R2 refuses a range that starts past the end: that is 416. Any other failure is not the client's.
    if (!range) throw error;
    const head = await bucket.head(key);
    if (!head) throw ApiError.notFound('Media file', key);
    const unsatisfiable = ('suffix' in range && range.suffix === 0) || ('offset' in range && range.offset !== undefined && range.offset >= head.size);
    if (!unsatisfiable) throw error;
    return c.body(null, 416, { 'Content-Range': `bytes */${head.size}` });
  }
  if (!object) throw ApiError.notFound('Media file', key);

  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('ETag', object.httpEtag);
  headers.set('Cache-Control', IMMUTABLE);
  headers.set('Last-Modified', object.uploaded.toUTCString());
  headers.set('Accept-Ranges', 'bytes');
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
  if (!('body' in object)) {
    // A precondition held it back: If-None-Match / If-Modified-Since matched (304), or If-Match / If-Unmodified-Since failed (412).
    const revalidation = c.req.header('If-None-Match') !== undefined || c.req.header('If-Modified-Since') !== undefined;
    return c.body(null, revalidation ? 304 : 412, Object.fromEntries(headers));
  }
  if (range && object.range) {
    const size = object.size;
    const sent = object.range as { offset?: number; length?: number; suffix?: number };
    const length = sent.suffix !== undefined ? Math.min(sent.suffix, size) : (sent.length ?? size - (sent.offset ?? 0));
    const offset = sent.suffix !== undefined ? size - length : (sent.offset ?? 0);
    headers.set('Content-Range', `bytes ${offset}-${offset + length - 1}/${size}`);
    headers.set('Content-Length', String(length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set('Content-Length', String(object.size));
  return new Response(object.body, { status: 200, headers });
};
