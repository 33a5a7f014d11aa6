import type { Hook } from '@hono/zod-openapi';
import type { z } from '@hono/zod-openapi';
import { ApiError, type FieldError } from './errors';
import { continueParsedList } from './query';

function fieldName(path: readonly PropertyKey[], fallback: string): string {
  return path.length ? path.map(String).join('.') : fallback;
}

/** zod words a missing field as a type error ("expected string, received undefined"); say it plainly. */
function readableMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) return 'is required';
  return issue.message;
}

/** One entry per invalid field, every field reported (a field's first problem is its message). */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const byField = new Map<string, string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = fieldName([...issue.path, key], 'body');
        if (!byField.has(field)) byField.set(field, 'is not a known field');
      }
      continue;
    }
    const field = fieldName(issue.path, 'body');
    if (!byField.has(field)) byField.set(field, readableMessage(issue));
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

/**
 * The validation hook of every router: a body that fails its schema is 422 VALIDATION_ERROR listing
 * each invalid field; a bad query or path parameter is 400 INVALID_REQUEST naming the parameter. A
 * list query that parsed is where a CSV export's page request gets the item it starts after (the
 * one place that sees both the request and the parsed query: src/lib/query/keyset.ts).
 */
export const validationHook: Hook<unknown, any, string, unknown> = (result, c) => {
  if (result.success) {
    if (result.target === 'query') continueParsedList(c.req.raw, result.data);
    return;
  }
  if (result.target === 'json' || result.target === 'form') throw ApiError.validation(fieldErrors(result.error));
  const [first] = fieldErrors(result.error);
  const where = result.target === 'query' ? 'query parameter' : `${result.target} parameter`;
  const field = !first || first.field === 'body' ? result.target : first.field;
  if (first?.message === 'is not a known field') {
    throw new ApiError('INVALID_REQUEST', `Unknown ${where} '${field}'`, { details: { field, issue: `unknown ${where}` } });
  }
  throw ApiError.badParameter(field, first?.message ?? 'invalid');
};
