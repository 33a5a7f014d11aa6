import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { brands } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { getByIdOrSlug, listTable, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { brandListQuery } from './brands.query';
export type { Brand } from './brands.schemas';
import type { Brand, CreateBrandInput, UpdateBrandInput } from './brands.schemas';

const UNIQUE_FIELDS = { 'brands.slug': 'slug' };

export function listBrands(db: Database, query: ParsedListQuery<typeof brandListQuery.filters>) {
  return listTable<Brand, typeof brandListQuery.filters>(db, brands, brandListQuery, query);
}

export function getBrand(db: Database, idOrSlug: string): Promise<Brand> {
  return getByIdOrSlug<Brand>(db, brands, idOrSlug, 'Brand');
}

export async function createBrand(db: Database, input: CreateBrandInput, now = new Date()): Promise<Brand> {
  const ts = now.toISOString();
  const row: Brand = {
    id: newId(ID_PREFIX.brand, now.getTime()),
    name: input.name,
    slug: input.slug ?? (await uniqueSlug(db, brands, brands.slug, input.name)),
    description: input.description ?? null,
    logoUrl: input.logoUrl ?? null,
    createdAt: ts,
    updatedAt: ts,
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(brands).values(row));
  return row;
}

export async function updateBrand(db: Database, id: string, patch: UpdateBrandInput, now = new Date()): Promise<Brand> {
  const current = await getBrand(db, id);
  if (Object.keys(patch).length === 0) return current;
  const set = { ...patch, updatedAt: now.toISOString() };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.update(brands).set(set).where(eq(brands.id, current.id)));
  return { ...current, ...set };
}

/** Products of a deleted brand keep existing, without a brand. */
export async function deleteBrand(db: Database, id: string): Promise<void> {
  const current = await getBrand(db, id);
  await db.delete(brands).where(eq(brands.id, current.id));
}
