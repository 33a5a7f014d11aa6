import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Every error code of the contract with its HTTP status: the single place this mapping lives. */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  VALIDATION_ERROR: 422,
  AUTHENTICATION_ERROR: 401,
  AUTHORIZATION_ERROR: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 502,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One bad parameter: `{ field, issue }`. */
export interface ParameterIssue {
  field: string;
  issue: string;
}
/** Body validation: one entry per invalid field. */
export interface FieldError {
  field: string;
  message: string;
}
export type ErrorDetails = ParameterIssue | FieldError[] | null;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: ContentfulStatusCode;
  readonly details: ErrorDetails;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; status?: ContentfulStatusCode; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    // INVALID_REQUEST alone carries other statuses (413, 415), as docs/api.md says.
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details ?? null;
    this.headers = options.headers ?? {};
  }

  static badParameter(field: string, issue: string): ApiError {
    return new ApiError('INVALID_REQUEST', `Invalid value for query parameter '${field}': ${issue}`, {
      details: { field, issue },
    });
  }

  static badHeader(field: string, issue: string): ApiError {
    return new ApiError('INVALID_REQUEST', `Invalid value for header '${field}': ${issue}`, { details: { field, issue } });
  }

  static validation(errors: FieldError[]): ApiError {
    const message =
      errors.length === 1 ? `Invalid request body: ${errors[0]!.field} ${errors[0]!.message}` : `Invalid request body: ${errors.length} fields are invalid`;
    return new ApiError('VALIDATION_ERROR', message, { details: errors });
  }

  static notFound(resource: string, id?: string): ApiError {
    return new ApiError('NOT_FOUND', id ? `${resource} '${id}' not found` : `${resource} not found`);
  }

  static conflict(message: string, field?: string): ApiError {
    return new ApiError('CONFLICT', message, field ? { details: { field, issue: message } } : {});
  }

  static unauthenticated(message: string): ApiError {
    return new ApiError('AUTHENTICATION_ERROR', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }

  static forbidden(message = 'This credential does not allow this action'): ApiError {
    return new ApiError('AUTHORIZATION_ERROR', message);
  }

  toBody() {
    return { success: false as const, error: { code: this.code, message: this.message, details: this.details } };
  }
}
