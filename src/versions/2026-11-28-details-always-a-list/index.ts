import { problemOf, type ErrorDetail } from '../../lib/errors';
import { errorOf, type VersionChange } from '../change';

/**
 * 2026-11-28: `details` is a list of `{ field?, code, message }` on every error. Before it (the
 * published contract of 2026-11-20) an INVALID_REQUEST (400, 413, 415) carried one object
 * `{ field, issue }` naming the bad parameter, header or body; every other error a list.
 */
export const detailsAlwaysAList: VersionChange = {
  version: '2026-11-28',
  summary:
    '`error.details` is always a list of `{ field, code, message }`, INVALID_REQUEST (400, 413, 415) included; before, INVALID_REQUEST carried one object `{ field, issue }`.',
  answer({ body }) {
    const error = errorOf(body);
    if (error?.code !== 'INVALID_REQUEST' || !Array.isArray(error.details)) return body;
    const wrapper = body as { error: object };
    return { ...wrapper, error: { ...error, details: parameterIssue(error.details as ErrorDetail[], error.message) } };
  },
  document(document) {
    const schemas = (document.components ??= {}).schemas ?? {};
    schemas.ParameterIssue = PARAMETER_ISSUE_SCHEMA;
    const error = schemas.Error as { properties?: { error?: { properties?: Record<string, unknown> } } } | undefined;
    const properties = error?.properties?.error?.properties;
    if (properties) properties.details = DETAILS_BEFORE;
  },
};

/** The field a request-wide INVALID_REQUEST names in 2026-11-20: no one parameter is at fault. */
export const WHOLE_REQUEST = 'request';

/** The one object of 2026-11-20: the first detail's field and its problem without the field's name (`issue`), with `code` and `message` beside them. */
function parameterIssue(details: ErrorDetail[], message: string) {
  const [first] = details;
  if (!first) return { field: WHOLE_REQUEST, issue: message };
  const field = first.field ?? WHOLE_REQUEST;
  return { field, issue: problemOf(first)?.problem ?? first.message, code: first.code, message: first.message };
}

const PARAMETER_ISSUE_SCHEMA = {
  type: 'object',
  description: 'The one bad query or path parameter, header or body of an INVALID_REQUEST (400, 413, 415).',
  properties: {
    field: { type: 'string', description: `The parameter, header or \`body\` at fault; \`${WHOLE_REQUEST}\` when it is the request as a whole.`, example: 'limit' },
    issue: { type: 'string', description: "What is wrong with it, without the field's name.", example: 'must be at most 100' },
    code: { $ref: '#/components/schemas/ErrorDetail/properties/code' },
    message: { type: 'string', description: 'The field and its issue, for a person.', example: 'limit must be at most 100' },
  },
  required: ['field', 'issue'],
};

const DETAILS_BEFORE = {
  description:
    'INVALID_REQUEST (400, 413, 415): one object `{ field, issue }` (ParameterIssue). Every other error: a list of `{ field, message }` (ErrorDetail), one per invalid field, empty when the error is about no one field. ' +
    'From version 2026-11-28 on, always a list (docs/versioning.md).',
  oneOf: [{ $ref: '#/components/schemas/ParameterIssue' }, { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } }],
};
