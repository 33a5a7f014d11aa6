import { and, count, eq, notExists } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users, vendors } from '../../db/schema';
import { isForeignKeyFailure, withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { getByIdOrSlug, listTable, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { vendorListQuery } from './vendors.query';
import type { CreateVendorInput, UpdateVendorInput, Vendor } from './vendors.schemas';

const UNIQUE_FIELDS = { 'vendors.slug': 'slug' };

export function listVendors(db: Database, query: ParsedListQuery<typeof vendorListQuery.filters>) {
  return listTable<Vendor, typeof vendorListQuery.filters>(db, vendors, vendorListQuery, query);
}

export function getVendor(db: Database, idOrSlug: string): Promise<Vendor> {
  return getByIdOrSlug<Vendor>(db, vendors, idOrSlug, 'Vendor');
}

export async function createVendor(db: Database, input: CreateVendorInput, now = new Date()): Promise<Vendor> {
  const ts = now.toISOString();
  const row: Vendor = {
    id: newId(ID_PREFIX.vendor, now.getTime()),
    name: input.name,
    slug: input.slug ?? (await uniqueSlug(db, vendors, vendors.slug, input.name)),
    email: input.email ?? null,
    description: input.description ?? null,
    status: input.status ?? 'active',
    createdAt: ts,
    updatedAt: ts,
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(vendors).values(row));
  return row;
}

export async function updateVendor(db: Database, idOrSlug: string, patch: UpdateVendorInput, now = new Date()): Promise<Vendor> {
  const current = await getVendor(db, idOrSlug);
  if (Object.keys(patch).length === 0) return current;
  const set = { ...patch, updatedAt: now.toISOString() };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.update(vendors).set(set).where(eq(vendors.id, current.id)));
  return { ...current, ...set };
}

/**
 * A vendor with users is kept (409): they would lose their vendor. Its products outlive it without a
 * vendor (the foreign key sets null). The user check is inside the DELETE, so it holds under races;
 * a foreign-key failure from any other reference is a 409 too, never a 500.
 */
export async function deleteVendor(db: Database, idOrSlug: string): Promise<void> {
  const current = await getVendor(db, idOrSlug);
  const conflict = (holders: number) => ApiError.conflict(`Vendor '${current.slug}' still has ${holders || 'dependent'} user(s); delete them or move them to another vendor first`);
  try {
    const [[held], deleted] = await db.batch([
      db.select({ n: count() }).from(users).where(eq(users.vendorId, current.id)),
      db.delete(vendors).where(and(eq(vendors.id, current.id), notExists(db.select({ id: users.id }).from(users).where(eq(users.vendorId, current.id))))),
    ]);
    // D1 counts the rows the foreign key sets null too, so "nothing deleted" is the test.
    if (deleted.meta.changes === 0) throw conflict(held!.n);
  } catch (error) {
    if (isForeignKeyFailure(error)) throw conflict(0);
    throw error;
  }
}
