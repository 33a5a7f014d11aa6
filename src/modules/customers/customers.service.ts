import { and, count, eq, getTableColumns } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type UserRow, users } from '../../db/schema';
import { withForeignKeyConflict, withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { createUser, toUser, USER_UNIQUE_FIELDS } from '../users';
import type { CustomerTarget } from './customers.access';
import { customerListQuery } from './customers.query';
import type { CreateCustomerInput, Customer, CustomerProfilePatch, UpdateCustomerInput } from './customers.schemas';
import { assertCurrentPassword, spendResetLinks } from './email-change';
import { retireTokens } from '../../middleware/credentials/user-token-cache';
import { groupIdsOf } from './group-membership';

export const CUSTOMER_ROLE = 'customer';
/** The condition that makes a user row a customer: every query of this module carries it. */
export const isCustomer = eq(users.roleId, CUSTOMER_ROLE);

/** A customer's row with the ids of its groups (customer_group_members). */
export type CustomerRow = UserRow & { groupIds: string[] };
const customerColumns = { ...getTableColumns(users), groupIds: groupIdsOf(users.id) };

export function toCustomer({ groupIds, ...row }: CustomerRow): Customer {
  const { role: _role, vendorId: _vendor, ...customer } = toUser(row);
  return { ...customer, groupIds };
}

const selectCustomer = (db: Database, id: string) =>
  db
    .select(customerColumns)
    .from(users)
    .where(and(eq(users.id, id), isCustomer));

/** One page of customers and their total, counted in SQL, in one D1 round trip. */
export async function listCustomers(db: Database, query: ParsedListQuery<typeof customerListQuery.filters>) {
  const plan = listPlan(customerListQuery, query, [isCustomer]);
  const [rows, totals] = await db.batch([
    db
      .select(customerColumns)
      .from(users)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(users).where(plan.matching),
  ]);
  return { items: rows.map(toCustomer), total: totals[0]!.total };
}

export async function getCustomer(db: Database, id: string): Promise<Customer> {
  const [row] = await selectCustomer(db, id);
  if (!row) throw ApiError.notFound('Customer', id);
  return toCustomer(row);
}

/** Emits `customer.registered` in the same batch (createUser does). */
export async function createCustomer(db: Database, input: CreateCustomerInput): Promise<Customer> {
  const { password, ...profile } = input;
  return toCustomer({ ...(await createUser(db, { ...profile, password: password ?? null, roleId: CUSTOMER_ROLE })), groupIds: [] });
}

export interface CustomerUpdate {
  row: CustomerRow;
  /** The email changed: every token of the account issued before is retired. */
  emailChanged: boolean;
}

async function customerRow(db: Database, id: string): Promise<CustomerRow> {
  const [row] = await selectCustomer(db, id);
  if (!row) throw ApiError.notFound('Customer', id);
  return row;
}

/**
 * Changing the email (email-change.ts) needs the current password from the customer itself, not
 * from staff, and retires the account's sessions and reset links either way. Disabling retires the
 * tokens for good: enabling the account again does not bring them back.
 */
export async function updateCustomer(db: Database, target: CustomerTarget, input: UpdateCustomerInput, now = new Date()): Promise<CustomerUpdate> {
  const { currentPassword, ...patch } = input;
  if (patch.email !== undefined) {
    const current = await customerRow(db, target.id);
    if (patch.email !== current.email) {
      if (target.self) await assertCurrentPassword(current, currentPassword);
      return { row: { ...(await changeEmail(db, current, { ...patch, email: patch.email }, target.self, now)), groupIds: current.groupIds }, emailChanged: true };
    }
  }
  if (Object.keys(patch).length === 0) return { row: await customerRow(db, target.id), emailChanged: false };
  const [, [row]] = await withUniqueConflicts(USER_UNIQUE_FIELDS, () =>
    db.batch([
      db
        .update(users)
        .set({ ...patch, updatedAt: now.toISOString(), ...(patch.status === 'disabled' ? retireTokens(target.id) : {}) })
        .where(and(eq(users.id, target.id), isCustomer)),
      selectCustomer(db, target.id),
    ]),
  );
  if (!row) throw ApiError.notFound('Customer', target.id);
  return { row, emailChanged: false };
}

async function changeEmail(db: Database, current: UserRow, patch: CustomerProfilePatch & { email: string }, self: boolean, now: Date): Promise<UserRow> {
  // A customer's own change holds only at the version its password was checked against: a concurrent password change wins.
  const unchangedSince = self ? eq(users.tokenVersion, current.tokenVersion) : undefined;
  const [updated] = await withUniqueConflicts(USER_UNIQUE_FIELDS, () =>
    db.batch([
      db
        .update(users)
        .set({ ...patch, updatedAt: now.toISOString(), ...retireTokens(current.id) })
        .where(and(eq(users.id, current.id), isCustomer, unchangedSince))
        .returning(),
      spendResetLinks(db, current.id, patch.email, now),
    ]),
  );
  const row = updated[0];
  if (!row && self) throw ApiError.unauthenticated('Invalid or expired token');
  if (!row) throw ApiError.notFound('Customer', current.id);
  return row;
}

/** Its addresses go with it (foreign key cascade); its tokens stop working on the next request. */
export async function deleteCustomer(db: Database, id: string): Promise<void> {
  // Rows of other tables that must keep their customer (orders, when they arrive) block the delete.
  const result = await withForeignKeyConflict('This customer has records that keep it; disable it instead (status: disabled)', () =>
    db.delete(users).where(and(eq(users.id, id), isCustomer)),
  );
  if (result.meta.changes === 0) throw ApiError.notFound('Customer', id);
}
