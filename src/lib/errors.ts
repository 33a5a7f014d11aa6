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
  SHIPPING_UNAVAILABLE: 422,
  COUPON_NOT_APPLICABLE: 409,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The closed set of `details[].code` values, each with what it means: the single place they are
 * listed (the OpenAPI document and docs/api.md show this list).
 */
export const DETAIL_CODES = {
  required: 'a required field, parameter or header is missing',
  invalid_type: 'the value has the wrong JSON type (a string where a number belongs, a fraction where a whole number belongs)',
  invalid_format: 'a string is not in the required format (email address, URL, date-time, pattern), or the body is not well-formed',
  invalid_value: 'the value is not one of those allowed, or is refused for the reason the message gives',
  too_small: 'a number, length or count is below its minimum',
  too_big: 'a number, length, count or size is above its maximum (a quantity above the stock, a body above the size limit)',
  unknown_field: 'the body has a field the endpoint does not know',
  unknown_parameter: 'the query has a parameter the endpoint does not know',
  not_found: 'the value refers to something that does not exist (a variant id, a customer id)',
  already_exists: 'another resource already has this unique value (a slug, a SKU, an email)',
  conflict: 'the value conflicts with the current state (an order status it cannot move to, a key used for another request)',
} as const;

export type DetailCode = keyof typeof DETAIL_CODES;

/** The conditions a promotion code can fail, in the order they are checked: a COUPON_NOT_APPLICABLE detail's `condition` (docs/promotions.md). */
export const NOT_APPLICABLE_CONDITIONS = [
  'unknown_code',
  'not_started',
  'expired',
  'usage_limit',
  'per_customer_limit',
  'currency',
  'customer_group',
  'no_matching_items',
  'min_quantity',
  'min_subtotal',
  'buy_quantity',
  'shipping_method',
  'shipping_zone',
  'not_combinable',
] as const;

/** One entry of `error.details`: `message` starts with the field's name, so it reads alone. */
export interface ErrorDetail {
  field?: string;
  code: DetailCode;
  message: string;
  /** With COUPON_NOT_APPLICABLE: the condition of the code that failed (docs/promotions.md). */
  condition?: string;
}

/** What is wrong with one field before it is worded: `problem` reads after the field's name ("must not be empty"). */
export interface FieldProblem {
  field: string;
  problem: string;
  /** `invalid_value` when not given. */
  code?: DetailCode;
}

/** A problem that reads as a predicate follows the field's name ("price must be 0 or more"); anything else after a colon ("variantId: no variant 'x'"). */
const PREDICATE = /^(is|are|was|were|must|may|can|cannot|has|have|needs?|holds?|should|does|do)\b/;

/** The message of a detail: the field's name, then its problem. */
export function describe(field: string, problem: string): string {
  return PREDICATE.test(problem) ? `${field} ${problem}` : `${field}: ${problem}`;
}

export function detailOf({ field, problem, code = 'invalid_value' }: FieldProblem): ErrorDetail {
  return { field, code, message: describe(field, problem) };
}

/** The problem of a detail without its field's name: to word it again for another field. */
export function problemOf(detail: ErrorDetail): FieldProblem | null {
  if (detail.field === undefined) return null;
  const problem = detail.message.slice(detail.field.length).replace(/^:? /, '');
  return { field: detail.field, problem, code: detail.code };
}

/** The same detail about another field (a service's name for it is not this body's). */
export function renamed(detail: ErrorDetail, field: string): ErrorDetail {
  const problem = problemOf(detail);
  return problem ? { ...detailOf({ ...problem, field }), ...(detail.condition ? { condition: detail.condition } : {}) } : detail;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: ContentfulStatusCode;
  /** Always a list, empty when the error is about no one field. */
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; status?: ContentfulStatusCode; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    // INVALID_REQUEST alone carries other statuses (413, 415), as docs/api.md says.
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }

  static badParameter(field: string, problem: string, code: DetailCode = 'invalid_value'): ApiError {
    return new ApiError('INVALID_REQUEST', `Invalid value for query parameter '${field}': ${problem}`, {
      details: [detailOf({ field, problem, code })],
    });
  }

  static badHeader(field: string, problem: string, code: DetailCode = 'invalid_value'): ApiError {
    return new ApiError('INVALID_REQUEST', `Invalid value for header '${field}': ${problem}`, { details: [detailOf({ field, problem, code })] });
  }

  /** 422 naming every invalid field: the message is the one field's problem, or which fields are invalid. */
  static validation(problems: (FieldProblem | ErrorDetail)[]): ApiError {
    const details = problems.map((p) => ('problem' in p ? detailOf(p) : p));
    const fields = [...new Set(details.map((d) => d.field ?? 'body'))];
    const message = fields.length > 1 ? `${fields.length} fields are invalid: ${fields.join(', ')}` : (details[0]?.message ?? 'The request is invalid');
    return new ApiError('VALIDATION_ERROR', message, { details });
  }

  static notFound(resource: string, id?: string): ApiError {
    return new ApiError('NOT_FOUND', id ? `${resource} '${id}' not found` : `${resource} not found`);
  }

  /** 409; about `field` when given, its detail worded by `problem` (the message when not given). */
  static conflict(message: string, field?: string, { problem = message, code = 'conflict' }: { problem?: string; code?: DetailCode } = {}): ApiError {
    return new ApiError('CONFLICT', message, field ? { details: [detailOf({ field, problem, code })] } : {});
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
