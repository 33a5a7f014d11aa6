import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type UserRow, users } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import type { User } from './users.schemas';

/** The shared core of every account: customers, vendor users and admin users live in one table. */

export const USER_UNIQUE_FIELDS = { 'users.email': 'email' };

export function toUser(row: UserRow): User {
  const { passwordHash: _hash, tokenVersion: _version, roleId, ...rest } = row;
  return { ...rest, role: roleId };
}

export interface NewUser {
  /** Already normalised (the `Email` schema lowercases it). */
  email: string;
  /** Clear text; null for an account that cannot sign in until a password is set. */
  password: string | null;
  name?: string | null;
  phone?: string | null;
  roleId: string;
  vendorId?: string | null;
  status?: UserRow['status'];
}

/**
 * Creates an account; 409 CONFLICT when the email is taken. A new customer emits
 * `customer.registered` in the same batch, whoever created it.
 */
export async function createUser(db: Database, input: NewUser, now = new Date()): Promise<UserRow> {
  const ts = now.toISOString();
  const row: UserRow = {
    id: newId(ID_PREFIX.user, now.getTime()),
    email: input.email.toLowerCase(),
    name: input.name ?? null,
    phone: input.phone ?? null,
    passwordHash: input.password === null ? null : await hashPassword(input.password),
    roleId: input.roleId,
    vendorId: input.vendorId ?? null,
    status: input.status ?? 'active',
    tokenVersion: 0,
    lastLoginAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const insert = db.insert(users).values(row);
  await withUniqueConflicts(USER_UNIQUE_FIELDS, async () => {
    if (row.roleId !== 'customer') return void (await insert);
    await db.batch([insert, outboxEvent(db, 'customer.registered', { customerId: row.id, email: row.email, name: row.name }, now)]);
  });
  return row;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, email.trim().toLowerCase()) });
}

export async function findUser(db: Database, id: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

/** The user with this id, or 404 naming `resource` (Customer, User). */
export async function getUserRow(db: Database, id: string, resource = 'User'): Promise<UserRow> {
  const row = await findUser(db, id);
  if (!row) throw ApiError.notFound(resource, id);
  return row;
}
