import type { Hook } from '@hono/zod-openapi';
import type { z } from '@hono/zod-openapi';
import { ApiError, type FieldProblem } from './errors';
import { wordIssue } from './issue-messages';
import { continueParsedList } from './query/list-query';

function fieldName(path: readonly PropertyKey[], fallback: string): string {
  return path.length ? path.map(String).join('.') : fallback;
}

/** One problem per invalid field, every field reported (a field's first problem is the one worded), named from `fallback` when the whole input is wrong. */
export function fieldProblems(error: z.ZodError, fallback = 'body'): FieldProblem[] {
  const byField = new Map<string, FieldProblem>();
  const add = (field: string, worded: Omit<FieldProblem, 'field'>) => {
    if (!byField.has(field)) byField.set(field, { field, ...worded });
  };
  for (const issue of error.issues) {
    const worded = wordIssue(issue);
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add(fieldName([...issue.path, key], fallback), worded);
    else add(fieldName(issue.path, fallback), worded);
  }
  return [...byField.values()];
}

/**
 * The validation hook of every router: a body that fails its schema is 422 VALIDATION_ERROR listing
 * each invalid field; a bad query or path parameter is 400 INVALID_REQUEST naming the parameter. A
 * list query that parsed is where a CSV export's page request gets the item it starts after (the
 * one place that sees both the request and the parsed query: src/lib/query/keyset.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: the hook serves every router, whatever its Env.
export const validationHook: Hook<unknown, any, string, unknown> = (result, c) => {
  if (result.success) {
    if (result.target === 'query') continueParsedList(c.req.raw, result.data);
    return;
  }
  if (result.target === 'json' || result.target === 'form') throw ApiError.validation(fieldProblems(result.error));
  throw parameterError(fieldProblems(result.error, result.target), result.target);
};

/** 400 naming the first bad query (or path, header) parameter. */
export function parameterError(problems: FieldProblem[], target: string): ApiError {
  const first = problems[0] ?? { field: target, problem: 'is invalid' };
  const where = target === 'query' ? 'query parameter' : `${target} parameter`;
  if (first.code === 'unknown_field') {
    return new ApiError('INVALID_REQUEST', `Unknown ${where} '${first.field}'`, {
      details: [{ field: first.field, code: 'unknown_parameter', message: `${first.field} is not a known ${where}` }],
    });
  }
  return ApiError.badParameter(first.field, first.problem, first.code);
}
