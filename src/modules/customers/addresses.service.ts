import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type AddressRow, addresses, users } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import type { Address, CreateAddressInput, UpdateAddressInput } from './addresses.schemas';
import { CUSTOMER_ROLE, isCustomer } from './customers.service';

export const MAX_ADDRESSES_PER_CUSTOMER = 50;

export function toAddress(row: AddressRow): Address {
  const { userId: _user, ...address } = row;
  return address;
}

const customerExists = (db: Database, customerId: string) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, customerId), isCustomer));

/** A customer's addresses, oldest first; 404 when there is no such customer. */
export async function listAddresses(db: Database, customerId: string): Promise<Address[]> {
  const [customer, rows] = await db.batch([
    customerExists(db, customerId),
    db.select().from(addresses).where(eq(addresses.userId, customerId)).orderBy(asc(addresses.createdAt), asc(addresses.id)),
  ]);
  if (!customer[0]) throw ApiError.notFound('Customer', customerId);
  return rows.map(toAddress);
}

export async function getAddress(db: Database, customerId: string, addressId: string): Promise<Address> {
  const [customer, rows] = await db.batch([
    customerExists(db, customerId),
    db
      .select()
      .from(addresses)
      .where(and(eq(addresses.id, addressId), eq(addresses.userId, customerId))),
  ]);
  if (!customer[0]) throw ApiError.notFound('Customer', customerId);
  if (!rows[0]) throw ApiError.notFound('Address', addressId);
  return toAddress(rows[0]);
}

type Defaults = Pick<Partial<AddressRow>, 'isDefaultShipping' | 'isDefaultBilling'>;

/**
 * Statements that take a default (shipping, billing) away from the customer's other addresses when
 * `addressId` takes it. They run only if `addressId` exists, so they are inert when its insert was refused.
 */
function clearOtherDefaults(db: Database, customerId: string, addressId: string, defaults: Defaults, ts: string) {
  const kinds = [
    defaults.isDefaultShipping && { column: addresses.isDefaultShipping, set: { isDefaultShipping: false } },
    defaults.isDefaultBilling && { column: addresses.isDefaultBilling, set: { isDefaultBilling: false } },
  ].filter((kind) => !!kind);
  return kinds.map(({ column, set }) =>
    db
      .update(addresses)
      .set({ ...set, updatedAt: ts })
      .where(and(eq(addresses.userId, customerId), ne(addresses.id, addressId), eq(column, true), sql`EXISTS (SELECT 1 FROM ${addresses} AS taken WHERE taken.id = ${addressId})`)),
  );
}

/**
 * Adds an address. The limit and the customer's existence are checked inside the insert itself, so
 * concurrent requests can never take a customer past the limit.
 */
export async function createAddress(db: Database, customerId: string, input: CreateAddressInput, now = new Date()): Promise<Address> {
  const ts = now.toISOString();
  const row: AddressRow = {
    id: newId(ID_PREFIX.address, now.getTime()),
    userId: customerId,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    company: input.company ?? null,
    line1: input.line1,
    line2: input.line2 ?? null,
    city: input.city,
    region: input.region ?? null,
    postalCode: input.postalCode ?? null,
    country: input.country,
    phone: input.phone ?? null,
    isDefaultShipping: input.isDefaultShipping ?? false,
    isDefaultBilling: input.isDefaultBilling ?? false,
    createdAt: ts,
    updatedAt: ts,
  };
  const underLimit = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${customerId} AND ${users.roleId} = ${CUSTOMER_ROLE})
    AND (SELECT count(*) FROM ${addresses} WHERE ${addresses.userId} = ${customerId}) < ${MAX_ADDRESSES_PER_CUSTOMER}`;
  const [inserted] = await db.batch([insertWhere(db, addresses, row, underLimit), ...clearOtherDefaults(db, customerId, row.id, row, ts)]);
  if (inserted.meta.changes === 0) {
    const [customer] = await customerExists(db, customerId);
    if (!customer) throw ApiError.notFound('Customer', customerId);
    throw ApiError.conflict(`A customer has at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses; delete one first`);
  }
  return toAddress(row);
}

export async function updateAddress(db: Database, customerId: string, addressId: string, patch: UpdateAddressInput, now = new Date()): Promise<Address> {
  const current = await getAddress(db, customerId, addressId);
  if (Object.keys(patch).length === 0) return current;
  const ts = now.toISOString();
  const set = { ...patch, updatedAt: ts };
  await db.batch([
    db
      .update(addresses)
      .set(set)
      .where(and(eq(addresses.id, addressId), eq(addresses.userId, customerId))),
    ...clearOtherDefaults(db, customerId, addressId, patch, ts),
  ]);
  return { ...current, ...set };
}

export async function deleteAddress(db: Database, customerId: string, addressId: string): Promise<void> {
  await getAddress(db, customerId, addressId);
  await db.delete(addresses).where(and(eq(addresses.id, addressId), eq(addresses.userId, customerId)));
}
