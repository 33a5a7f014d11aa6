import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env';
import { noteReplacedRequest } from '../lib/arrived-request';
import { ApiError, detailOf } from '../lib/errors';
import { config } from '../config';
import { routePolicy } from './route-policy';

/** How large a request's body may be, and the error that refuses a larger one. */
export interface BodyLimit {
  maxBytes: number;
  refusal: () => ApiError;
}

/** `maxBytes` in the message; `allowance` more taken for the form around a file. */
export function bodyOver(maxBytes: number, allowance = 0): BodyLimit {
  return {
    maxBytes: maxBytes + allowance,
    refusal: () =>
      new ApiError('INVALID_REQUEST', `Request body is larger than the limit of ${maxBytes} bytes`, {
        status: 413,
        details: [detailOf({ field: 'body', problem: `is larger than ${maxBytes} bytes`, code: 'too_big' })],
      }),
  };
}

/** An API request's limit: its route's `maxBodyBytes` (src/lib/route-policy.ts; MAX_BODY_BYTES unless the route says otherwise). */
const routeLimit = (c: Context<AppEnv>) => bodyOver(routePolicy(c).maxBodyBytes(config(c.env)));

/**
 * Refuses a body over its limit (streamed ones included) with 413 in the error envelope, before
 * anything reads it, signed in or not. `limitOf` is the route policy's in the API; the admin panel
 * gives its own (src/admin/body-limits.ts).
 */
export function bodyLimit(limitOf: (c: Context<AppEnv>) => BodyLimit = routeLimit) {
  return createMiddleware<AppEnv>(async function bodyLimit(c, next) {
    const { maxBytes, refusal } = limitOf(c);
    const arrived = c.req.raw;
    return honoBodyLimit({
      maxSize: maxBytes,
      onError: () => {
        throw refusal();
      },
    })(c, () => {
      noteReplacedRequest(arrived, c.req.raw);
      return next();
    });
  });
}
