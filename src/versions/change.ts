/**
 * One breaking change of the API's shapes, in its own folder named by the version that made it
 * (docs/versioning.md). Handlers only ever produce the newest shape; a request on an older version
 * gets each newer change undone in turn, newest first (src/versions/versions.ts). A change that
 * alters what a request sends adds a `request` hook here the day one needs it.
 */
export interface VersionChange {
  /** The version (`YYYY-MM-DD`) that introduced the change: older versions get the older shape. */
  version: string;
  /** One line on what changed, for client developers (`GET /api`'s `versions`, CHANGELOG.md). */
  summary: string;
  /** The JSON body of an answer in this version's shape, turned into the previous version's (unchanged when it does not apply). */
  answer?(answer: JsonAnswer): unknown;
  /** This version's OpenAPI document turned, in place, into the previous version's. */
  document?(document: OpenApiDocument): void;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/** The parts of an OpenAPI 3.1 document a change may rewrite. */
export interface OpenApiDocument {
  info: { version: string; description?: string; [key: string]: unknown };
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

/** An error envelope (`{ success: false, error: { code, message, details } }`), or null for any other body. */
export function errorOf(body: unknown): { code: string; message: string; details: unknown } | null {
  if (typeof body !== 'object' || body === null || (body as { success?: unknown }).success !== false) return null;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as never) : null;
}
