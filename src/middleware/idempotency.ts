import { z } from '@hono/zod-openapi';
import { and, eq, lt } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { idempotencyKeys } from '../db/schema';
import type { AppEnv } from '../env';
import { sha256Hex } from '../lib/crypto';
import { ApiError, detailOf } from '../lib/errors';
import { wordIssue } from '../lib/issue-messages';
import { principalRef } from '../lib/access';
import { versionAliasPath } from './api-version';
import { routePolicy } from './route-policy';

/**
 * `Idempotency-Key` (docs/api.md, Idempotency), as route middleware, which `apiRoute` adds after the
 * route's own (its credential guard) when its policy says `idempotency: { scope }`; the route
 * documents the header with `request: { headers: IdempotencyHeaders }`. A repeat with the same key and the same request within 24 hours gets the first
 * response again (status, body, Location), marked `Idempotent-Replayed: true`, and the handler does
 * not run; the same key on another request is 409, and so is a repeat while the first still runs.
 * Keys are per caller: the credential (`key:<id>`, `user:<id>`) or, without one, the client IP, and
 * per header of the policy's `scope` the request carries (a cart token), so a replay opens only what
 * the first request's own access check opened.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** 1 to 255 printable ASCII characters; a UUID v4 per operation is the usual choice. */
export const IdempotencyKey = z
  .string()
  .min(1, 'must be 1 to 255 printable characters')
  .max(255, 'must be 1 to 255 printable characters')
  .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII characters');

/** The header as a route's `request.headers`, shared by every route that takes it (the validator matches header names case-insensitively). */
export const IdempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: IdempotencyKey.optional().openapi({
    example: '6f1c1b4e-3f0e-4b7a-9a59-2f7d0c3b8e21',
    description:
      'Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response ' +
      `(status and body, with \`${REPLAYED_HEADER}: true\`) without doing the work again. The same key with a different body, or while the ` +
      'first request is still running, is 409 CONFLICT. Keys are per credential (per client IP without one) and per header the operation lists in ' +
      "`x-idempotency.scope` (a cart token): a repeat without the first request's value of one is answered as new, by the route's own access check. " +
      '1 to 255 printable characters. ' +
      'Responses with a 5xx status are not kept, so the request can be retried with the same key.',
  }),
});

/** What is kept of a response: its status, its body and the headers a client acts on. */
interface StoredResponse {
  body: string;
  headers: Record<string, string>;
}
const KEPT_HEADERS = ['Content-Type', 'Location'];

/**
 * `anon:<ip>` or the credential, then a hash of each header of the route's scope present:
 * `anon:203.0.113.7 x-cart-token:<sha256>`. Those headers open a resource the way a credential does
 * (a guest cart's token); the path and body are in the request hash already, but these are not, so
 * without them in the scope a replay from the same IP would hand the stored answer to a caller the
 * route itself refuses.
 */
async function callerScope(c: Context<AppEnv>): Promise<string> {
  const caller = principalRef(c.var.principal) ?? `anon:${c.req.header('CF-Connecting-IP') ?? 'unknown'}`;
  const parts = [caller];
  const { idempotency } = routePolicy(c);
  for (const name of idempotency ? idempotency.scope : []) {
    const value = c.req.header(name);
    // Salted with the name, so the scope never equals a hash stored elsewhere (carts keep the token's plain SHA-256).
    if (value !== undefined) parts.push(`${name.toLowerCase()}:${await sha256Hex(`${name.toLowerCase()}\n${value}`)}`);
  }
  return parts.join(' ');
}

const conflict = (message: string) => new ApiError('CONFLICT', message, { details: [detailOf({ field: IDEMPOTENCY_HEADER, problem: message, code: 'conflict' })] });

export function idempotent() {
  return createMiddleware<AppEnv>(async function idempotent(c, next) {
    const raw = c.req.header(IDEMPOTENCY_HEADER);
    if (raw === undefined) return next();
    const parsed = IdempotencyKey.safeParse(raw);
    if (!parsed.success) {
      const { problem, code } = wordIssue(parsed.error.issues[0]!);
      throw new ApiError('INVALID_REQUEST', `Invalid ${IDEMPOTENCY_HEADER} header: ${problem}`, { details: [detailOf({ field: IDEMPOTENCY_HEADER, problem, code })] });
    }
    const db = c.var.db;
    const scope = await callerScope(c);
    const path = versionAliasPath(c.req.raw);
    // The body is cached by Hono, so the route's validator reads it again.
    const requestHash = await sha256Hex(`${c.req.method}\n${path}\n${await c.req.text()}`);
    // Services that call payment providers keep it on the row they start, so a retry resumes that row (src/modules/ledger/settle.ts).
    c.set('requestKey', await sha256Hex(`${scope}\n${raw}`));
    const where = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, raw));
    const now = new Date();
    const claim = { scope, key: raw, method: c.req.method, path, requestHash, responseStatus: null, responseBody: null, createdAt: now.toISOString() };
    const expired = lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString());

    for (let attempt = 0; ; attempt++) {
      // Claim the key: a new row, or one whose 24 hours are over. Nothing comes back while a live row holds it.
      const claimed = await db
        .insert(idempotencyKeys)
        .values(claim)
        .onConflictDoUpdate({ target: [idempotencyKeys.scope, idempotencyKeys.key], set: claim, setWhere: expired })
        .returning({ key: idempotencyKeys.key });
      if (claimed.length) break;
      const [held] = await db.select().from(idempotencyKeys).where(where);
      // Gone between the two reads: the first request ended in a 5xx and let go of the key; claim it again.
      if (!held && attempt === 0) continue;
      if (!held) throw conflict(`A request with this ${IDEMPOTENCY_HEADER} is in progress`);
      if (held.requestHash !== requestHash) throw conflict(`This ${IDEMPOTENCY_HEADER} was used for a different request; use a new key`);
      if (held.responseStatus === null || held.responseBody === null) throw conflict(`A request with this ${IDEMPOTENCY_HEADER} is in progress`);
      return replay(c, held.responseStatus, held.responseBody);
    }

    // A 5xx, or a response that could not be kept, lets go of the key so that the client can retry.
    const release = () => db.delete(idempotencyKeys).where(where);
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    if (c.res.status >= 500) {
      await release();
      return;
    }
    try {
      await db
        .update(idempotencyKeys)
        .set(await stored(c))
        .where(where);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'idempotent response not kept', error: String(error) }));
      await release();
    }
  });
}

async function stored(c: Context) {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = c.res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const response: StoredResponse = { body: await c.res.clone().text(), headers };
  return { responseStatus: c.res.status, responseBody: JSON.stringify(response) };
}

/** Through the context, so headers set by earlier middleware (request id, rate limit) are kept. */
function replay(c: Context, status: number, text: string): Response {
  const response = JSON.parse(text) as StoredResponse;
  return c.body(response.body, status as never, { ...response.headers, [REPLAYED_HEADER]: 'true' });
}
