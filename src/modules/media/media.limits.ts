import { ApiError, detailOf } from '../../lib/errors';

// An upload's size limits, apart from reading uploads: the panel's body limits use them at every
// request, without loading the media module (src/mounts.ts).

/** Room for a multipart body's boundaries and fields around a file of the largest size. */
export const MULTIPART_ALLOWANCE = 64 * 1024;

/** 413 for an image over `maxBytes`. */
export function tooLarge(maxBytes: number) {
  return new ApiError('INVALID_REQUEST', `Images are at most ${maxBytes} bytes (${(maxBytes / 1024 / 1024).toFixed(1)} MiB)`, {
    status: 413,
    details: [detailOf({ field: 'file', problem: `is larger than ${maxBytes} bytes`, code: 'too_big' })],
  });
}
