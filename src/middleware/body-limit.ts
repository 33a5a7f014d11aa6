import { createMiddleware } from 'hono/factory';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { MEDIA_UPLOAD_PATH, MULTIPART_ALLOWANCE, mediaMaxBytes, tooLarge } from '../modules/media/media.upload';
import { versionAliasPath } from './api-version';
import { IMPORT_PATH, importMaxBytes } from '../modules/imports/imports.schemas';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Refuses bodies over `MAX_BODY_BYTES` (streamed ones included) with 413 in the error envelope; an
 * image upload may be as large as MEDIA_MAX_BYTES (with room for a form around it), a product import
 * as IMPORT_MAX_BYTES.
 */
export function bodyLimit() {
  return createMiddleware<AppEnv>(async function bodyLimit(c, next) {
    if (c.req.method === 'POST' && MEDIA_UPLOAD_PATH.test(versionAliasPath(c.req.raw))) {
      const maxImage = mediaMaxBytes(c.env);
      return honoBodyLimit({ maxSize: maxImage + MULTIPART_ALLOWANCE, onError: () => { throw tooLarge(maxImage); } })(c, next);
    }
    const importing = c.req.method === 'POST' && versionAliasPath(c.req.raw) === IMPORT_PATH;
    const maxSize = importing ? importMaxBytes(c.env) : Number(c.env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY_BYTES;
    const limiter = honoBodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError('INVALID_REQUEST', `Request body is larger than the limit of ${maxSize} bytes`, {
          status: 413,
          details: { field: 'body', issue: `larger than ${maxSize} bytes` },
        });
      },
    });
    return limiter(c, next);
  });
}
