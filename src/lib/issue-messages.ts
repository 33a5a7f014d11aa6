import { z } from '@hono/zod-openapi';
import type { DetailCode } from './errors';

/**
 * zod issues worded for a person, with the machine-readable detail code beside them: the one place
 * validation messages are made. A problem reads after the field's name ("must not be empty"); a
 * message a schema gives itself (`.refine(..., 'must be in the future')`, `.min(1, '...')`) is kept.
 */
export interface WordedIssue {
  code: DetailCode;
  problem: string;
}

type Issue = z.core.$ZodIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  bigint: 'a whole number',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'a valid email address',
  url: 'a valid URL',
  uuid: 'a valid UUID',
  datetime: 'an ISO 8601 date-time, like 2026-12-01T10:00:00Z',
  date: 'a date, like 2026-12-01',
  time: 'a time, like 10:00:00',
  duration: 'an ISO 8601 duration',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  e164: 'a phone number in E.164 form, like +14155550100',
};

/** zod's own (English) wording of an issue; a different message was given by the schema. */
function isZodDefault(issue: Issue): boolean {
  // zod words a type error with the value it got, which the final issue no longer carries.
  if (issue.code === 'invalid_type') return /^Invalid input: expected \w+, received \w+$/.test(issue.message);
  const worded = z.config().localeError?.(issue as never);
  return (typeof worded === 'string' ? worded : worded?.message) === issue.message;
}

const quoted = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function sizeProblem(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const n = Number(small ? issue.minimum : issue.maximum);
  const bound = small ? (issue.inclusive === false ? n + 1 : n) : issue.inclusive === false ? n - 1 : n;
  const atLeast = small ? 'at least' : 'at most';
  switch (issue.origin) {
    case 'string':
      if (small && bound === 1) return 'must not be empty';
      return `must be ${atLeast} ${bound} character${bound === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      if (small && bound === 1) return 'must have at least one item';
      return `must have ${atLeast} ${bound} item${bound === 1 ? '' : 's'}`;
    case 'number':
    case 'int':
    case 'bigint':
      if (issue.inclusive === false) return `must be ${small ? 'more' : 'less'} than ${n}`;
      if (small && n === 0) return 'must be 0 or more';
      return `must be ${atLeast} ${n}`;
    case 'date':
      return `must be ${small ? 'on or after' : 'on or before'} ${new Date(n).toISOString()}`;
    default:
      return `must be ${atLeast} ${n}`;
  }
}

function worded(issue: Issue): WordedIssue {
  switch (issue.code) {
    case 'invalid_type':
      if (/ received undefined$/.test(issue.message)) return { code: 'required', problem: 'is required' };
      return { code: 'invalid_type', problem: `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}` };
    case 'too_small':
    case 'too_big':
      return { code: issue.code, problem: sizeProblem(issue) };
    case 'invalid_format': {
      if (issue.format === 'regex') return { code: 'invalid_format', problem: `must match the pattern ${(issue as { pattern?: string }).pattern ?? ''}`.trim() };
      if (issue.format === 'starts_with') return { code: 'invalid_format', problem: `must start with "${(issue as { prefix?: string }).prefix}"` };
      if (issue.format === 'ends_with') return { code: 'invalid_format', problem: `must end with "${(issue as { suffix?: string }).suffix}"` };
      if (issue.format === 'includes') return { code: 'invalid_format', problem: `must include "${(issue as { includes?: string }).includes}"` };
      return { code: 'invalid_format', problem: `must be ${FORMAT_NAMES[issue.format] ?? `a valid ${issue.format}`}` };
    }
    case 'invalid_value':
      if (issue.values.length === 1) return { code: 'invalid_value', problem: `must be ${quoted(issue.values[0])}` };
      return { code: 'invalid_value', problem: `must be one of: ${issue.values.map(quoted).join(', ')}` };
    case 'not_multiple_of':
      return { code: 'invalid_value', problem: `must be a multiple of ${String(issue.divisor)}` };
    case 'unrecognized_keys':
      return { code: 'unknown_field', problem: 'is not a known field' };
    case 'invalid_union':
      return { code: 'invalid_value', problem: 'is not any of the accepted forms' };
    case 'invalid_key':
      return { code: 'invalid_value', problem: 'has a key that is not allowed' };
    case 'invalid_element':
      return { code: 'invalid_value', problem: 'has an element that is not allowed' };
    default:
      return { code: 'invalid_value', problem: issue.message };
  }
}

/** An issue's detail code and problem; a schema's own message is kept as the problem. */
export function wordIssue(issue: Issue): WordedIssue {
  const plain = worded(issue);
  if (issue.code === 'custom' || isZodDefault(issue)) return plain;
  return { code: plain.code, problem: issue.message };
}
