import { retireTokens } from '../../middleware/credentials/user-token-cache';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addresses, type UserRow, users } from '../../db/schema';
import type { Bindings } from '../../env';
import { timingSafeEqualBytes } from '../../lib/crypto';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { tokenForUser } from '../../lib/jwt';
import { DECOY_HASH, hashPassword, verifyPassword } from '../../lib/password';
import { insertWhere } from '../../lib/insert-where';
import { adoptGuestCartByToken } from '../carts';
import { attemptStatements, attemptVerdict, clearFailureStatements, lockedOut } from '../../middleware/credentials/login-lockout';
import { toAddress, assertCurrentPassword } from '../customers';
import { createUser, getUserRow, newUserRow, toUser, USER_UNIQUE_FIELDS } from '../users';
import type { BootstrapInput, ChangePasswordInput, LoginInput, RegisterInput, Session } from './auth.schemas';
import { config } from '../../config';

type TokenSettings = Pick<Bindings, 'JWT_SECRET' | 'JWT_TTL_SECONDS'>;
export const ADMIN_ROLE = 'admin';
const ALREADY_BOOTSTRAPPED = 'The store is already bootstrapped: an admin user exists';
const BAD_LOGIN = 'Invalid email or password';

export async function sessionFor(env: TokenSettings, row: UserRow): Promise<Session> {
  const { token, expiresIn } = await tokenForUser(env, row);
  return { token, expiresIn, user: toUser(row) };
}

/**
 * Customer sign-up: emits `customer.registered` in the same batch as the account (createUser does),
 * then takes the guest cart of `cartToken` along, as sign-in does.
 */
export async function register(db: Database, env: TokenSettings, input: RegisterInput): Promise<Session> {
  const { cartToken, ...account } = input;
  const row = await createUser(db, { ...account, roleId: 'customer' });
  await adoptCartAtLogin(db, row, cartToken);
  return sessionFor(env, row);
}

/**
 * One answer for an unknown email, a wrong password and an account without a password, and the
 * same PBKDF2 work for each (the decoy hash), so neither the body nor the time tells which. The
 * attempt is counted towards the account's lock-outs in the batch that reads the account, before the
 * password is checked (src/middleware/credentials/login-lockout.ts), and is checked only within the limits:
 * parallel guesses cannot overtake the lock. A locked account (or email) is 429 whatever the
 * password; a right password clears the counters.
 */
export async function login(db: Database, env: TokenSettings, input: LoginInput, ip: string, now = new Date()): Promise<Session> {
  const [found, ...counters] = await db.batch([
    db.select().from(users).where(eq(users.email, input.email.trim().toLowerCase())).limit(1),
    ...attemptStatements(db, input.email, ip, now),
  ]);
  const attempt = attemptVerdict(counters, now);
  if (!attempt.allowed) throw lockedOut(attempt.lock, now);
  const row = found[0];
  const matches = await verifyPassword(input.password, row?.passwordHash ?? DECOY_HASH);
  if (!row?.passwordHash || !matches) throw attempt.lock ? lockedOut(attempt.lock, now) : ApiError.unauthenticated(BAD_LOGIN);
  const lastLoginAt = now.toISOString();
  await db.batch([
    db
      .update(users)
      .set({ lastLoginAt })
      .where(and(eq(users.id, row.id), eq(users.status, 'active'))),
    ...clearFailureStatements(db, input.email, ip, now),
  ]);
  if (row.status !== 'active') throw ApiError.unauthenticated('This account is disabled');
  await adoptCartAtLogin(db, row, input.cartToken);
  return sessionFor(env, { ...row, lastLoginAt });
}

/** Sign-in or sign-up with a guest cart token takes that cart into the user's; either succeeds whatever becomes of the cart. */
export async function adoptCartAtLogin(db: Database, row: UserRow, cartToken: string | undefined): Promise<void> {
  if (!cartToken || row.vendorId) return;
  await adoptGuestCartByToken(db, row.id, cartToken).catch((error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
  });
}

/** The signed-in user with its addresses, in one round trip. */
export async function me(db: Database, userId: string) {
  const [rows, addressRows] = await db.batch([
    db.select().from(users).where(eq(users.id, userId)),
    db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.createdAt), asc(addresses.id)),
  ]);
  if (!rows[0]) throw ApiError.unauthenticated('Invalid or expired token');
  return { ...toUser(rows[0]), addresses: addressRows.map(toAddress) };
}

/**
 * A wrong current password is 422 on `currentPassword`, not 401: the token is fine, and clients
 * treat 401 as "signed out". Bumping the token version retires every token issued before.
 */
export async function changePassword(db: Database, env: TokenSettings, userId: string, input: ChangePasswordInput, now = new Date()): Promise<Session> {
  const current = await getUserRow(db, userId);
  await assertCurrentPassword(current, input.currentPassword);
  const [row] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.newPassword), ...retireTokens(userId), updatedAt: now.toISOString() })
    // Only the version this request was authenticated with: a concurrent change wins, this one fails.
    .where(and(eq(users.id, userId), eq(users.tokenVersion, current.tokenVersion)))
    .returning();
  if (!row) throw ApiError.unauthenticated('Invalid or expired token');
  return sessionFor(env, row);
}

const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/** Equal-length digests compared in constant time: neither the secret's content nor its length leaks. */
async function isBootstrapSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return timingSafeEqualBytes(a, b);
}

const noAdmin = sql`NOT EXISTS (SELECT 1 FROM ${users} WHERE ${users.roleId} = ${ADMIN_ROLE})`;

/**
 * Creates the store's first admin user, once. Without BOOTSTRAP_SECRET configured the endpoint does
 * not exist (404). The "no admin yet" check lives in the insert itself, so two concurrent calls
 * cannot both succeed.
 */
export async function bootstrap(db: Database, env: TokenSettings & Pick<Bindings, 'BOOTSTRAP_SECRET'>, input: BootstrapInput, now = new Date()): Promise<Session> {
  const { BOOTSTRAP_SECRET } = config(env);
  if (!BOOTSTRAP_SECRET) throw new ApiError('NOT_FOUND', 'Bootstrap is not enabled on this store');
  if (!(await isBootstrapSecret(input.secret, BOOTSTRAP_SECRET))) throw ApiError.forbidden('Invalid bootstrap secret');
  const row = await newUserRow({ email: input.email, password: input.password, name: input.name, roleId: ADMIN_ROLE }, now);
  const result = await withUniqueConflicts(USER_UNIQUE_FIELDS, () => insertWhere(db, users, row, noAdmin));
  if (result.meta.changes === 0) throw ApiError.conflict(ALREADY_BOOTSTRAPPED);
  return sessionFor(env, row);
}
