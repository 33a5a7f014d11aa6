import { ApiError } from './errors';

/** What a UNIQUE violation of one column means: its API field, and the words for it where the default ones would mislead. */
export type UniqueField = string | { field: string; message: string; problem: string };

/**
 * Turns a UNIQUE constraint failure from D1 into 409 CONFLICT naming the API field, using a map of
 * `table.column` to field (and, optionally, its own message); other errors pass through unchanged.
 */
export function conflictFromUnique(error: unknown, fields: Record<string, UniqueField>): unknown {
  const match = /UNIQUE constraint failed: ([\w.]+)/.exec(errorText(error));
  if (!match) return error;
  const known = fields[match[1]!];
  if (typeof known === 'object') return ApiError.conflict(known.message, known.field, { code: 'already_exists', problem: known.problem });
  const field = known ?? match[1]!.split('.').pop()!;
  return ApiError.conflict(`A resource with this ${field} already exists`, field, { code: 'already_exists', problem: 'is already taken by another resource' });
}

/** Runs a write and maps its UNIQUE violations to 409. */
export async function withUniqueConflicts<T>(fields: Record<string, UniqueField>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw conflictFromUnique(error, fields);
  }
}

const errorText = (error: unknown) => String((error as Error)?.message ?? error) + String((error as { cause?: unknown })?.cause ?? '');

/** True when a trigger aborted the statement with `RAISE(ABORT, reason)` (a rule the schema keeps under any race). */
export function isTriggerAbort(error: unknown, reason: string): boolean {
  return errorText(error).includes(reason);
}

/** True for a FOREIGN KEY constraint failure from D1 (a row still referenced, or a reference to nothing). */
export function isForeignKeyFailure(error: unknown): boolean {
  return /FOREIGN KEY constraint failed/.test(errorText(error));
}

/** True for any constraint failure (UNIQUE, FOREIGN KEY, NOT NULL, CHECK): a statement the database refused, not a failed call. */
export function isConstraintFailure(error: unknown): boolean {
  return /constraint failed/i.test(errorText(error));
}

/** Runs a write and turns a foreign-key failure into 409 CONFLICT with `message`; other errors pass through. */
export async function withForeignKeyConflict<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyFailure(error)) throw ApiError.conflict(message);
    throw error;
  }
}

/**
 * True when D1 refused a statement itself, whatever the data and however often it is sent: more
 * bound values than it takes (`too many SQL variables`), a value too big or of a type it cannot
 * bind, SQL that does not compile. A fault of the code that built the statement: retrying it only
 * fails again.
 */
export function isStatementRefused(error: unknown): boolean {
  return /too many SQL variables|string or blob too big|SQLITE_TOOBIG|D1_TYPE_ERROR|no such (table|column)|has no column named|syntax error/i.test(errorText(error));
}

/** True when D1 refused a statement for binding more values than it takes (src/db/bound-parameters.ts). */
export function isTooManyBoundValues(error: unknown): boolean {
  return /too many SQL variables/i.test(errorText(error));
}
