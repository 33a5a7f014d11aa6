// The errors the client throws. An API error answer (`{ success: false, error: { code, message,
// details } }`) becomes a StoreApiError of the subclass for its code, carrying the HTTP status and
// the request id (`X-Request-Id`) to quote when reporting a problem. A request that got no answer
// at all (DNS, connection refused, timeout) is a StoreConnectionError.

import type { ErrorDetail } from './generated/types.js';

/** The error codes of the API (docs/api.md, "Errors"). */
export type ErrorCode = 'INVALID_REQUEST' | 'VALIDATION_ERROR' | 'AUTHENTICATION_ERROR' | 'AUTHORIZATION_ERROR' | 'NOT_FOUND' | 'CONFLICT' | 'RATE_LIMITED' | 'INTERNAL_ERROR';

export interface StoreApiErrorInit {
  code: string;
  status: number;
  message: string;
  /** The envelope's `details` as sent; read as a list of ErrorDetail (see detailsOf). */
  details?: unknown;
  requestId?: string | null;
  /** Seconds from `Retry-After`, when the answer had one. */
  retryAfter?: number | null;
  /** The parsed answer body, when it was JSON. */
  body?: unknown;
}

/** An error answer of the API. `code` is one of ErrorCode (a newer server may add others). */
export class StoreApiError extends Error {
  readonly code: ErrorCode | (string & {});
  readonly status: number;
  /**
   * One entry per invalid field, parameter or header: `{ field?, code, message }`, where `code` is a
   * detail code (`required`, `too_small`, `not_found`, ...) and `message` starts with the field's name.
   * Always a list, in every API version (2026-11-20's one object is read as a list of one): empty
   * when the error is about no one field.
   */
  readonly details: ErrorDetail[];
  /** The `X-Request-Id` of the answer. */
  readonly requestId: string | null;
  /** Seconds from `Retry-After` (429 and some 503 answers). */
  readonly retryAfter: number | null;
  readonly body: unknown;

  constructor(init: StoreApiErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.details = detailsOf(init.details);
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body;
  }
}

/**
 * `details` as a list whatever the server sent: a list as it is, and the one object
 * `{ field, issue, code?, message? }` that INVALID_REQUEST carries in 2026-11-20 as a list of that
 * one entry (its message, else "<field> <issue>"). Entries without a message are dropped, a missing
 * code is `invalid_value`, anything else is `[]`.
 */
export function detailsOf(raw: unknown): ErrorDetail[] {
  const items: unknown[] = Array.isArray(raw) ? raw : raw !== null && typeof raw === 'object' ? [publishedDetail(raw as Record<string, unknown>)] : [];
  return items.flatMap((item) => {
    const { field, code, message } = (item ?? {}) as { field?: unknown; code?: unknown; message?: unknown };
    if (typeof message !== 'string') return [];
    const detail = { code: (typeof code === 'string' ? code : 'invalid_value') as ErrorDetail['code'], message };
    return [typeof field === 'string' ? { field, ...detail } : detail];
  });
}

/** The 2026-11-20 object `{ field, issue }` (with `code` and `message` when the server adds them) as a list entry. */
function publishedDetail(raw: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw.message === 'string' || typeof raw.issue !== 'string') return raw;
  return { ...raw, message: typeof raw.field === 'string' ? `${raw.field} ${raw.issue}` : raw.issue };
}

/** 400 INVALID_REQUEST (also 413 and 415): a malformed request, an unknown parameter or field. */
export class InvalidRequestError extends StoreApiError {}
/** 422 VALIDATION_ERROR: `details` lists every invalid field as `{ field, code, message }`. */
export class ValidationError extends StoreApiError {}
/** 401 AUTHENTICATION_ERROR: no credential where one is needed, or a bad one. */
export class AuthenticationError extends StoreApiError {}
/** 403 AUTHORIZATION_ERROR: the credential lacks a permission (the message names it). */
export class AuthorizationError extends StoreApiError {}
/** 404 NOT_FOUND: no such resource, or not yours. */
export class NotFoundError extends StoreApiError {}
/** 409 CONFLICT: the state does not allow it (stock, a used-up coupon, a taken slug, a reused idempotency key). */
export class ConflictError extends StoreApiError {}
/** 429 RATE_LIMITED: over a rate limit after the client's retries, or a `Retry-After` longer than it waits. */
export class RateLimitedError extends StoreApiError {}
/** 500 INTERNAL_ERROR: a bug on the server; quote `requestId`. */
export class InternalError extends StoreApiError {}

const BY_CODE: Record<ErrorCode, typeof StoreApiError> = {
  INVALID_REQUEST: InvalidRequestError,
  VALIDATION_ERROR: ValidationError,
  AUTHENTICATION_ERROR: AuthenticationError,
  AUTHORIZATION_ERROR: AuthorizationError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  RATE_LIMITED: RateLimitedError,
  INTERNAL_ERROR: InternalError,
};

/** The code an answer without an error envelope (a proxy's 502, say) is given, by its status. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'AUTHENTICATION_ERROR';
  if (status === 403) return 'AUTHORIZATION_ERROR';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 422) return 'VALIDATION_ERROR';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'INTERNAL_ERROR';
  return 'INVALID_REQUEST';
}

/** The StoreApiError subclass for a code (StoreApiError itself for a code this client does not know). */
export function errorFor(init: StoreApiErrorInit): StoreApiError {
  const Class = (BY_CODE as Record<string, typeof StoreApiError>)[init.code] ?? StoreApiError;
  return new Class(init);
}

/** No answer: the connection failed, or the request timed out, after the client's retries. */
export class StoreConnectionError extends Error {
  readonly method: string;
  readonly url: string;
  constructor(message: string, { method, url, cause }: { method: string; url: string; cause?: unknown }) {
    super(message, { cause });
    this.name = 'StoreConnectionError';
    this.method = method;
    this.url = url;
  }
}
