import { createMiddleware } from 'hono/factory';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Refuses bodies over `MAX_BODY_BYTES` (streamed ones included) with 413 in the error envelope. */
export function bodyLimit() {
  return createMiddleware<AppEnv>(async function bodyLimit(c, next) {
    const maxSize = Number(c.env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY_BYTES;
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
