import type { JsonAnswer, OpenApiDocument, VersionChange } from './change';
import { detailsAlwaysAList } from './2026-11-28-details-always-a-list';

/**
 * The dated versions of the API (docs/versioning.md). The first is the published contract; each
 * later one is a breaking change, oldest first. A request is answered in the version its
 * `Store-Version` header names, else its key's pinned `apiVersion`, else the store's default
 * (src/middleware/store-version.ts).
 */
export const FIRST_VERSION = '2026-11-20';

const CHANGES: readonly VersionChange[] = [detailsAlwaysAList];

export interface StoreVersion {
  version: string;
  summary: string;
  /** When the version is deprecated: answers on it carry `Deprecation` (and `Sunset` once a date is set). */
  deprecatedOn?: string;
  sunsetOn?: string;
}

export const VERSIONS: readonly StoreVersion[] = [
  {
    version: FIRST_VERSION,
    summary:
      'The published contract: envelopes, pagination and error codes as docs/api.md shows them; `error.details` is one object `{ field, issue }` for INVALID_REQUEST and a list of `{ field, message }` for every other error.',
  },
  ...CHANGES.map(({ version, summary }) => ({ version, summary })),
];

export const LATEST_VERSION = VERSIONS[VERSIONS.length - 1]!.version;
export const VERSION_DATES = VERSIONS.map((v) => v.version) as [string, ...string[]];

export const isStoreVersion = (value: string): boolean => VERSION_DATES.includes(value);

/** A stored version (a key's, the store's) that is no longer served answers as the oldest that is. */
export const servedVersion = (value: string | null | undefined): string => (value && isStoreVersion(value) ? value : FIRST_VERSION);

export const versionInfo = (version: string): StoreVersion | undefined => VERSIONS.find((v) => v.version === version);

/** The changes newer than `version`, newest first: the order they are undone in. */
function changesAfter(version: string): VersionChange[] {
  return CHANGES.filter((change) => change.version > version).reverse();
}

/** Whether an answer in `version` can differ from the newest shape at all. */
export const isOlderThanLatest = (version: string): boolean => version < LATEST_VERSION;

/** The newest shape's body turned into `version`'s. */
export function answerIn(version: string, answer: JsonAnswer): unknown {
  let body = answer.body;
  for (const change of changesAfter(version)) if (change.answer) body = change.answer({ status: answer.status, body });
  return body;
}

/** The newest OpenAPI document (not changed) turned into `version`'s, as a new object. */
export function documentIn(version: string, newest: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(newest);
  for (const change of changesAfter(version)) change.document?.(document);
  document.info.version = version;
  return document;
}
