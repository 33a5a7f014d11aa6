// Writes the served OpenAPI document of the latest API version (GET /api/openapi.json) to clients/openapi.json, or to the path
// given as the first argument, in the API version given as the second. The document is built exactly as test/openapi.node.test.ts builds it:
// the app answers the request in-process, with no database behind it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app';
import { LATEST_VERSION } from '../src/versions/versions';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The one thing asked of the database binding: a session, never queried (the document reads nothing). */
const NO_DATABASE = { withSession: () => ({ getBookmark: () => null }) } as unknown as D1Database;
/** The document is counted like any anonymous read (src/middleware/rate-limit.ts): here by a limiter that allows it. */
const ALLOWING_LIMITER = {
  getByName: () => ({
    count: async (limit: number, _windowSeconds: number, entries: unknown[]) => entries.map(() => ({ allowed: true, limit, remaining: limit - 1, reset: 0, retryAfter: 0 })),
  }),
} as unknown as DurableObjectNamespace;
/** The count runs in the request's background; nothing here waits for it. */
const NO_WAITING = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

/** The document the Worker serves in `version` (the latest by default: the clients are generated from it), as a parsed object. */
// biome-ignore lint/suspicious/noExplicitAny: tests walk the document freely.
export async function openApiDocument(version = LATEST_VERSION): Promise<Record<string, any>> {
  const request = new Request('http://store.test/api/openapi.json', { headers: { 'Store-Version': version } });
  const res = await createApp().fetch(request, { DB: NO_DATABASE, ADDRESS_LIMITER: ALLOWING_LIMITER } as never, NO_WAITING);
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Writes the document pretty-printed (2 spaces, trailing newline); returns the path written. */
export async function dumpOpenApi(target = resolve(ROOT, 'clients/openapi.json'), version = LATEST_VERSION): Promise<string> {
  const doc = await openApiDocument(version);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = await dumpOpenApi(process.argv[2] ? resolve(process.argv[2]) : undefined, process.argv[3]);
  console.error(`Wrote ${target}`);
}
