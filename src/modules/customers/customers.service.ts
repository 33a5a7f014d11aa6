import { and, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type UserRow, users } from '../../db/schema';
import { withForeignKeyConflict, withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { createUser, toUser, USER_UNIQUE_FIELDS } from '../users/users.service';
import { customerListQuery } from './customers.query';
import type { CreateCustomerInput, Customer, UpdateCustomerInput } from './customers.schemas';

export const CUSTOMER_ROLE = 'customer';
/** The condition that makes a user row a customer: every query of this module carries it. */
export const isCustomer = eq(users.roleId, CUSTOMER_ROLE);

export function toCustomer(row: UserRow): Customer {
  const { role: _role, vendorId: _vendor, ...customer } = toUser(row);
  return customer;
}

/** One page of customers and their total, counted in SQL, in one D1 round trip. */
export async function listCustomers(db: Database, query: ParsedListQuery<typeof customerListQuery.filters>) {
  const plan = listPlan(customerListQuery, query, [isCustomer]);
  const [rows, totals] = await db.batch([
    db.select().from(users).where(plan.where).orderBy(...plan.orderBy).limit(plan.limit).offset(plan.offset),
    db.select({ total: count() }).from(users).where(plan.where),
  ]);
  return { items: rows.map(toCustomer), total: totals[0]!.total };
}

export async function getCustomer(db: Database, id: string): Promise<Customer> {
  const row = await db.query.users.findFirst({ where: and(eq(users.id, id), isCustomer) });
  if (!row) throw ApiError.notFound('Customer', id);
  return toCustomer(row);
}

/** Emits `customer.registered` in the same batch (createUser does). */
export async function createCustomer(db: Database, input: CreateCustomerInput): Promise<Customer> {
  const { password, ...profile } = input;
  return toCustomer(await createUser(db, { ...profile, password: password ?? null, roleId: CUSTOMER_ROLE }));
}

// Disabling retires the customer's tokens for good: enabling it again does not bring them back.
const retireTokens = { tokenVersion: sql`${users.tokenVersion} + 1` };

export async function updateCustomer(db: Database, id: string, patch: UpdateCustomerInput, now = new Date()): Promise<Customer> {
  if (Object.keys(patch).length === 0) return getCustomer(db, id);
  const [row] = await withUniqueConflicts(USER_UNIQUE_FIELDS, () =>
    db
      .update(users)
      .set({ ...patch, updatedAt: now.toISOString(), ...(patch.status === 'disabled' ? retireTokens : {}) })
      .where(and(eq(users.id, id), isCustomer))
      .returning(),
  );
  if (!row) throw ApiError.notFound('Customer', id);
  return toCustomer(row);
}

/** Its addresses go with it (foreign key cascade); its tokens stop working on the next request. */
export async function deleteCustomer(db: Database, id: string): Promise<void> {
  // Rows of other tables that must keep their customer (orders, when they arrive) block the delete.
  const result = await withForeignKeyConflict('This customer has records that keep it; disable it instead (status: disabled)', () =>
    db.delete(users).where(and(eq(users.id, id), isCustomer)),
  );
  if (result.meta.changes === 0) throw ApiError.notFound('Customer', id);
}
