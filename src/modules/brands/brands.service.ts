import { count, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { brands } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { brandListQuery } from './brands.query';
export type { Brand } from './brands.schemas';
import type { Brand, CreateBrandInput, UpdateBrandInput } from './brands.schemas';

const UNIQUE_FIELDS = { 'brands.slug': 'slug' };

export async function listBrands(db: Database, query: ParsedListQuery<typeof brandListQuery.filters>) {
  const plan = listPlan(brandListQuery, query);
  const [items, [totalRow]] = await db.batch([
    db.select().from(brands).where(plan.where).orderBy(...plan.orderBy).limit(plan.limit).offset(plan.offset),
    db.select({ total: count() }).from(brands).where(plan.where),
  ]);
  return { items, total: totalRow!.total };
}

export async function getBrand(db: Database, idOrSlug: string): Promise<Brand> {
  const brand = await db.query.brands.findFirst({ where: or(eq(brands.id, idOrSlug), eq(brands.slug, idOrSlug)) });
  if (!brand) throw ApiError.notFound('Brand', idOrSlug);
  return brand;
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
