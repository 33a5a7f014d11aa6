import { createMiddleware } from 'hono/factory';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import type { AppEnv, Bindings } from '../env';
import { ApiError, detailOf } from '../lib/errors';
import { MEDIA_UPLOAD_PATH, MULTIPART_ALLOWANCE, mediaMaxBytes, tooLarge } from '../modules/media/media.upload';
import { versionAliasPath } from './api-version';
import { IMPORT_PATH, importMaxBytes } from '../modules/imports/imports.schemas';
import { config } from '../config';

/** The admin panel's forms that carry the same files as the API's two large bodies (src/admin/routes). */
const PANEL_MEDIA_UPLOAD_PATH = /^\/admin\/products\/[^/]+\/media\/?$/;
const PANEL_IMPORT_PATH = '/admin/products/import';

interface Limit {
  maxSize: number;
  refusal: () => ApiError;
}

function bodyOver(maxSize: number, allowance = 0): Limit {
  return {
    maxSize: maxSize + allowance,
    refusal: () =>
      new ApiError('INVALID_REQUEST', `Request body is larger than the limit of ${maxSize} bytes`, {
        status: 413,
        details: [detailOf({ field: 'body', problem: `is larger than ${maxSize} bytes`, code: 'too_big' })],
      }),
  };
}

/**
 * How large a body `path` may take: MAX_BODY_BYTES, except an image upload (MEDIA_MAX_BYTES, with
 * room for a form around it) and a product import (IMPORT_MAX_BYTES; in the panel a form around
 * the file), in the API and in the panel alike.
 */
function limitOf(env: Bindings, method: string, path: string): Limit {
  if (method === 'POST' && (MEDIA_UPLOAD_PATH.test(path) || PANEL_MEDIA_UPLOAD_PATH.test(path))) {
    const maxImage = mediaMaxBytes(env);
    return { maxSize: maxImage + MULTIPART_ALLOWANCE, refusal: () => tooLarge(maxImage) };
  }
  if (method === 'POST' && path === IMPORT_PATH) return bodyOver(importMaxBytes(env));
  if (method === 'POST' && path === PANEL_IMPORT_PATH) return bodyOver(importMaxBytes(env), MULTIPART_ALLOWANCE);
  return bodyOver(config(env).MAX_BODY_BYTES);
}

/**
 * Refuses a body over its limit (limitOf; streamed ones included) with 413 in the error envelope,
 * before anything reads it: the API's requests and the panel's form posts, signed in or not.
 */
export function bodyLimit() {
  return createMiddleware<AppEnv>(async function bodyLimit(c, next) {
    const { maxSize, refusal } = limitOf(c.env, c.req.method, versionAliasPath(c.req.raw));
    return honoBodyLimit({ maxSize, onError: () => { throw refusal(); } })(c, next);
  });
}
