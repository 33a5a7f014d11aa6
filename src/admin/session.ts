import { eq, lt } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { adminSessions, type UserRow, users } from '../db/schema';
import type { AppEnv } from '../env';
import { randomBase62, sha256Hex } from '../lib/crypto';
import { ApiError } from '../lib/errors';
import { lookupUser } from '../middleware/auth';
import type { Principal } from '../lib/access';
import { config } from '../config';

/** The panel's session: a random token in an HttpOnly cookie, its SHA-256 the row id. */
export const SESSION_COOKIE = 'admin_session';
/** A workday: a session ends 12 hours after sign-in, whatever happens in between. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
const TOKEN_LENGTH = 43; // ~256 bits of base62

export interface AdminSession {
  id: string;
  csrfToken: string;
  user: { id: string; email: string; name: string | null; role: string; vendorId: string | null };
  principal: Principal & { kind: 'user' };
}

/** Secure everywhere but local development (http://localhost), HttpOnly, SameSite=Lax, scoped to /admin. */
export function cookieOptions(c: Context<AppEnv>, maxAge?: number): CookieOptions {
  return { path: '/admin', httpOnly: true, secure: config(c.env).ENVIRONMENT !== 'development', sameSite: 'Lax', ...(maxAge ? { maxAge } : {}) };
}

export async function startSession(c: Context<AppEnv>, user: UserRow, now = new Date()): Promise<void> {
  const token = randomBase62(TOKEN_LENGTH);
  const db = c.var.db;
  const ts = now.toISOString();
  await db.batch([
    // Sign-in is a good moment to drop sessions that have run out (the expires_at index finds them).
    db.delete(adminSessions).where(lt(adminSessions.expiresAt, ts)),
    db.insert(adminSessions).values({
      id: await sha256Hex(token),
      userId: user.id,
      tokenVersion: user.tokenVersion,
      csrfToken: randomBase62(TOKEN_LENGTH),
      ip: c.req.header('CF-Connecting-IP') ?? null,
      userAgent: c.req.header('User-Agent')?.slice(0, 300) ?? null,
      createdAt: ts,
      expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000).toISOString(),
    }),
  ]);
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, SESSION_TTL_SECONDS));
}

/**
 * The session behind the request's cookie, or null: unknown, expired, or its user changed password
 * (token version), was disabled or lost access. The principal is built exactly as for a JWT.
 */
export async function readSession(c: Context<AppEnv>, now = new Date()): Promise<AdminSession | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length !== TOKEN_LENGTH) return null;
  const db = c.var.db;
  const id = await sha256Hex(token);
  const [found] = await db
    .select({ row: adminSessions, user: { id: users.id, email: users.email, name: users.name, role: users.roleId, vendorId: users.vendorId } })
    .from(adminSessions)
    .innerJoin(users, eq(users.id, adminSessions.userId))
    .where(eq(adminSessions.id, id))
    .limit(1);
  if (!found || found.row.expiresAt <= now.toISOString()) return null;
  const { row, user } = found;
  const principal = await lookupUser(db, { sub: row.userId, ver: row.tokenVersion }).catch((error: unknown) => {
    if (error instanceof ApiError) return null;
    throw error;
  });
  if (principal?.kind !== 'user' || !isPanelUser(principal)) return null;
  return { id, csrfToken: row.csrfToken, user, principal };
}

/** Admin and vendor users (and staff of custom roles) use the panel; customers do not. */
export function isPanelUser(principal: Principal): boolean {
  return principal.kind === 'user' && (principal.vendorId !== null || principal.role !== 'customer');
}

export async function endSession(c: Context<AppEnv>): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await c.var.db.delete(adminSessions).where(eq(adminSessions.id, await sha256Hex(token)));
  deleteCookie(c, SESSION_COOKIE, cookieOptions(c));
}
