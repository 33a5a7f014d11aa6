import { and, count, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { bulkInserts } from '../../db/bound-parameters';
import type { Database } from '../../db/client';
import { customerGroupMembers, customerGroups, users } from '../../db/schema';
import { withForeignKeyConflict, withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { isCustomer } from '../customers';
import { customerGroupListQuery } from './customer-groups.query';
import type { CreateCustomerGroupInput, CustomerGroup, UpdateCustomerGroupInput } from './customer-groups.schemas';

const UNIQUE_FIELDS = {
  'customer_groups.name': { field: 'name', message: 'A customer group with this name already exists', problem: 'is already the name of a customer group' },
};

const columns = {
  ...getTableColumns(customerGroups),
  memberCount: sql<number>`(SELECT count(*) FROM ${customerGroupMembers} WHERE ${customerGroupMembers.groupId} = ${customerGroups.id})`.mapWith(Number),
};
const selectGroup = (db: Database, id: string) => db.select(columns).from(customerGroups).where(eq(customerGroups.id, id));

export async function listCustomerGroups(db: Database, query: ParsedListQuery<typeof customerGroupListQuery.filters>) {
  const plan = listPlan(customerGroupListQuery, query);
  const [items, totals] = await db.batch([
    db
      .select(columns)
      .from(customerGroups)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(customerGroups).where(plan.matching),
  ]);
  return { items, total: totals[0]!.total };
}

export async function getCustomerGroup(db: Database, id: string): Promise<CustomerGroup> {
  const [row] = await selectGroup(db, id);
  if (!row) throw ApiError.notFound('Customer group', id);
  return row;
}

export async function createCustomerGroup(db: Database, input: CreateCustomerGroupInput, now = new Date()): Promise<CustomerGroup> {
  const ts = now.toISOString();
  const row = { id: newId(ID_PREFIX.customerGroup, now.getTime()), name: input.name, description: input.description ?? null, createdAt: ts, updatedAt: ts };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(customerGroups).values(row));
  return { ...row, memberCount: 0 };
}

export async function updateCustomerGroup(db: Database, id: string, patch: UpdateCustomerGroupInput, now = new Date()): Promise<CustomerGroup> {
  if (Object.keys(patch).length === 0) return getCustomerGroup(db, id);
  const [, [row]] = await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db
        .update(customerGroups)
        .set({ ...patch, updatedAt: now.toISOString() })
        .where(eq(customerGroups.id, id)),
      selectGroup(db, id),
    ]),
  );
  if (!row) throw ApiError.notFound('Customer group', id);
  return row;
}

/** Its memberships go with it; refused (409) while a price list is for it. */
export async function deleteCustomerGroup(db: Database, id: string): Promise<void> {
  const result = await withForeignKeyConflict('Price lists are for this customer group: delete them or give them another group first', () =>
    db.delete(customerGroups).where(eq(customerGroups.id, id)),
  );
  if (result.meta.changes === 0) throw ApiError.notFound('Customer group', id);
}

/** Adds customers to a group (those already in it stay); 422 naming ids that are not customers. */
export async function addMembers(db: Database, groupId: string, customerIds: string[], now = new Date()): Promise<CustomerGroup> {
  const [groups, found] = await db.batch([
    db.select({ id: customerGroups.id }).from(customerGroups).where(eq(customerGroups.id, groupId)),
    db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, customerIds), isCustomer)),
  ]);
  if (!groups[0]) throw ApiError.notFound('Customer group', groupId);
  const known = new Set(found.map((r) => r.id));
  const missing = customerIds.filter((id) => !known.has(id));
  if (missing.length) throw ApiError.validation([{ field: 'customerIds', problem: `no customers ${missing.map((id) => `'${id}'`).join(', ')}`, code: 'not_found' }]);
  const ts = now.toISOString();
  // A customer or group deleted meanwhile fails the foreign key: answered as the check above would.
  const inserts = bulkInserts(
    db,
    customerGroupMembers,
    customerIds.map((customerId) => ({ groupId, customerId, createdAt: ts })),
  ).map((insert) => insert.onConflictDoNothing());
  const results = await withForeignKeyConflict('The group or a customer was deleted meanwhile; retry', () => db.batch([...inserts, selectGroup(db, groupId)] as never));
  // The group as the inserts left it: the batch's last statement.
  const [row] = (results as unknown[]).at(-1) as Awaited<ReturnType<typeof selectGroup>>;
  return row!;
}

/** 404 when the group does not exist or the customer is not in it. */
export async function removeMember(db: Database, groupId: string, customerId: string): Promise<void> {
  const result = await db.delete(customerGroupMembers).where(and(eq(customerGroupMembers.groupId, groupId), eq(customerGroupMembers.customerId, customerId)));
  if (result.meta.changes > 0) return;
  await getCustomerGroup(db, groupId);
  throw ApiError.notFound('Member', customerId);
}
