import { retireTokens } from '../../middleware/credentials/user-token-cache';
import { and, count, eq, exists, isNull, ne, notExists, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { apiKeys, roles, type UserRow, users, vendors } from '../../db/schema';
import { withForeignKeyConflict, withUniqueConflicts } from '../../lib/db-errors';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { assertCovers, type Principal } from '../../lib/access';
import { staffUserListQuery } from './users.query';
import type { CreateStaffUserInput, UpdateStaffUserInput, User } from './users.schemas';

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
  smsOptOut?: boolean;
  marketingEmailOptOut?: boolean;
}

/** A complete users row for a new account, its password hashed; nothing is written. */
export async function newUserRow(input: NewUser, now = new Date()): Promise<UserRow> {
  const ts = now.toISOString();
  return {
    id: newId(ID_PREFIX.user, now.getTime()),
    email: input.email.toLowerCase(),
    name: input.name ?? null,
    phone: input.phone ?? null,
    passwordHash: input.password === null ? null : await hashPassword(input.password),
    roleId: input.roleId,
    vendorId: input.vendorId ?? null,
    status: input.status ?? 'active',
    tokenVersion: 0,
    smsOptOut: input.smsOptOut ?? false,
    marketingEmailOptOut: input.marketingEmailOptOut ?? false,
    lastLoginAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
}

/**
 * Creates an account; 409 CONFLICT when the email is taken. A new customer emits
 * `customer.registered` in the same batch, whoever created it.
 */
export async function createUser(db: Database, input: NewUser, now = new Date()): Promise<UserRow> {
  const row = await newUserRow(input, now);
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

// ---------------------------------------------------------------------------------------------
// Staff users at /api/users: every role but customer. Customers are managed at /api/customers.

const NOT_CUSTOMER = ne(users.roleId, 'customer');

export async function listStaffUsers(db: Database, query: ParsedListQuery<typeof staffUserListQuery.filters>) {
  const plan = listPlan(staffUserListQuery, query, [NOT_CUSTOMER]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(users)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(users).where(plan.matching),
  ]);
  return { items: rows.map(toUser), total: totals[0]!.total };
}

/** A staff user, or 404: a customer's id is not found here either. */
export async function getStaffUserRow(db: Database, id: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), NOT_CUSTOMER))
    .limit(1);
  if (!row) throw ApiError.notFound('User', id);
  return row;
}

/** A staff user with the permissions of its role, or 404: what the grant rule judges the user by. */
async function getStaffUserGrantee(db: Database, id: string) {
  const [found] = await db
    .select({ row: users, permissions: roles.permissions })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.id, id), NOT_CUSTOMER))
    .limit(1);
  if (!found) throw ApiError.notFound('User', id);
  return { current: found.row, grantee: { permissions: found.permissions, vendorId: found.row.vendorId } };
}

/**
 * The role and vendor a staff user may have: the role exists and is not customer; role vendor needs
 * an existing vendor and other roles none (422 naming the field). The actor must cover the role and
 * vendor it gives (the grant rule, 403), so a credential cannot raise anyone above itself.
 */
async function staffAssignment(db: Database, actor: Principal, roleRef: string, vendorId: string | null) {
  const [roleRows, vendorRows] = await db.batch([
    db
      .select()
      .from(roles)
      .where(or(eq(roles.id, roleRef), eq(roles.name, roleRef)))
      .limit(1),
    db
      .select({ id: vendors.id })
      .from(vendors)
      .where(eq(vendors.id, vendorId ?? ''))
      .limit(1),
  ]);
  const role = roleRows[0];
  const errors: FieldProblem[] = [];
  if (!role) errors.push({ field: 'role', problem: `no role '${roleRef}'`, code: 'not_found' });
  else if (role.id === 'customer') errors.push({ field: 'role', problem: 'must not be customer: customers are managed at /api/customers' });
  else if (role.id === 'vendor' && !vendorId) errors.push({ field: 'vendorId', problem: 'is required for role vendor', code: 'required' });
  else if (role.id === 'vendor' && !vendorRows[0]) errors.push({ field: 'vendorId', problem: `no vendor '${vendorId}'`, code: 'not_found' });
  else if (role.id !== 'vendor' && vendorId) errors.push({ field: 'vendorId', problem: `must be null for role '${role.name}': only vendor users belong to a vendor` });
  if (errors.length || !role) throw ApiError.validation(errors);
  const assignment = { roleId: role.id, vendorId: role.id === 'vendor' ? vendorId : null };
  assertCovers(actor, { permissions: role.permissions, vendorId: assignment.vendorId }, `grant role '${role.name}'`);
  return assignment;
}

export async function createStaffUser(db: Database, actor: Principal, input: CreateStaffUserInput): Promise<UserRow> {
  const assignment = await staffAssignment(db, actor, input.role, input.vendorId ?? null);
  return createUser(db, { email: input.email, password: input.password, name: input.name, phone: input.phone, ...assignment });
}

const isSelf = (actor: Principal, row: UserRow) => actor.kind === 'user' && actor.id === row.id;

/**
 * Holds when removing `row` from the active admins leaves another one. It is part of the write's
 * WHERE, so two admins demoting each other at once cannot leave the store without one.
 */
function anotherActiveAdmin(db: Database, row: UserRow) {
  const other = alias(users, 'other_admin');
  return exists(
    db
      .select({ id: other.id })
      .from(other)
      .where(and(eq(other.roleId, 'admin'), eq(other.status, 'active'), ne(other.id, row.id))),
  );
}
const isActiveAdmin = (row: { roleId: string; status: string }) => row.roleId === 'admin' && row.status === 'active';
const lastAdmin = (what: string) => ApiError.conflict(`Cannot ${what} the last active admin user; make another user admin first`);

/**
 * The actor must cover the user as it is (every change, a password or a status included) and as it
 * would be; nobody changes its own role or vendor. The write holds only while the user still has
 * the role and vendor the check saw, and never removes the last active admin.
 */
export async function updateStaffUser(db: Database, actor: Principal, id: string, patch: UpdateStaffUserInput, now = new Date()): Promise<UserRow> {
  const { current, grantee } = await getStaffUserGrantee(db, id);
  assertCovers(actor, grantee, `change user '${current.email}'`);
  if (patch.status === 'disabled' && isSelf(actor, current)) throw ApiError.conflict('A user cannot disable itself', 'status');
  const { role, vendorId, password, ...plain } = patch;
  const set: Omit<Partial<UserRow>, 'tokenVersion'> & { tokenVersion?: SQL } = { ...plain, updatedAt: now.toISOString() };
  if ((role !== undefined && role !== current.roleId) || (vendorId !== undefined && vendorId !== current.vendorId)) {
    if (isSelf(actor, current)) throw ApiError.forbidden('A user cannot change its own role or vendor');
  }
  if (role !== undefined || vendorId !== undefined) {
    const roleRef = role ?? current.roleId;
    // Leaving the vendor role drops the vendor unless the body names one (then 422).
    const wantedVendor = vendorId !== undefined ? vendorId : roleRef === 'vendor' ? current.vendorId : null;
    Object.assign(set, await staffAssignment(db, actor, roleRef, wantedVendor));
  }
  if (password !== undefined) set.passwordHash = await hashPassword(password);
  // A new password or a disabling retires every token for good: re-enabling must not revive a leaked one.
  if (password !== undefined || (patch.status === 'disabled' && current.status !== 'disabled')) set.tokenVersion = retireTokens(current.id).tokenVersion;
  const after = { roleId: set.roleId ?? current.roleId, status: set.status ?? current.status };
  const removesAdmin = isActiveAdmin(current) && !isActiveAdmin(after);
  const [row] = await db
    .update(users)
    .set(set)
    .where(and(asChecked(current), removesAdmin ? anotherActiveAdmin(db, current) : undefined))
    .returning();
  if (!row) throw removesAdmin ? lastAdmin(after.status === 'disabled' ? 'disable' : 'demote') : changedMeanwhile();
  return row;
}

/**
 * Deleting a user revokes the API keys it owns in the same batch (a disabled or demoted owner's
 * keys are only suspended: the key check reads the owner on every request).
 */
export async function deleteStaffUser(db: Database, actor: Principal, id: string, now = new Date()): Promise<void> {
  const { current, grantee } = await getStaffUserGrantee(db, id);
  if (isSelf(actor, current)) throw ApiError.conflict('A user cannot delete itself');
  assertCovers(actor, grantee, `delete user '${current.email}'`);
  const gone = notExists(db.select({ id: users.id }).from(users).where(eq(users.id, current.id)));
  const [deleted] = await withForeignKeyConflict('This user is still referenced (orders, ...); disable it instead', () =>
    db.batch([
      db.delete(users).where(and(asChecked(current), isActiveAdmin(current) ? anotherActiveAdmin(db, current) : undefined)),
      db
        .update(apiKeys)
        .set({ revokedAt: now.toISOString(), updatedAt: now.toISOString() })
        .where(and(eq(apiKeys.ownerId, current.id), isNull(apiKeys.revokedAt), gone)),
    ]),
  );
  if (deleted.meta.changes === 0) throw isActiveAdmin(current) ? lastAdmin('delete') : changedMeanwhile();
}

/** The user still has the role and vendor the grant rule judged. */
const asChecked = (current: UserRow) =>
  and(eq(users.id, current.id), eq(users.roleId, current.roleId), current.vendorId === null ? isNull(users.vendorId) : eq(users.vendorId, current.vendorId));
const changedMeanwhile = () => ApiError.conflict("The user's role changed meanwhile; read it again and retry");
