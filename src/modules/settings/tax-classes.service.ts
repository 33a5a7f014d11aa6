import { count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { products, type TaxClassRow, taxClasses } from '../../db/schema';
import { isTriggerAbort, withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { taxClassListQuery } from './tax-classes.query';
import { BUILT_IN_TAX_CLASSES, type CreateTaxClassInput, type TaxClass, type UpdateTaxClassInput } from './tax-classes.schemas';

const UNIQUE_FIELDS = {
  'tax_classes.code': { field: 'code', message: 'A tax class with this code already exists', problem: 'is already the code of a tax class' },
};

export async function listTaxClasses(db: Database, query: ParsedListQuery<typeof taxClassListQuery.filters>) {
  return listTable<TaxClassRow, typeof taxClassListQuery.filters>(db, taxClasses, taxClassListQuery, query);
}

export async function getTaxClass(db: Database, code: string): Promise<TaxClass> {
  const [row] = await db.select().from(taxClasses).where(eq(taxClasses.code, code)).limit(1);
  if (!row) throw ApiError.notFound('Tax class', code);
  return row;
}

export async function createTaxClass(db: Database, input: CreateTaxClassInput, now = new Date()): Promise<TaxClass> {
  const ts = now.toISOString();
  const row: TaxClassRow = { code: input.code, name: input.name, createdAt: ts, updatedAt: ts };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(taxClasses).values(row));
  return row;
}

export async function updateTaxClass(db: Database, code: string, patch: UpdateTaxClassInput, now = new Date()): Promise<TaxClass> {
  const current = await getTaxClass(db, code);
  if (Object.keys(patch).length === 0) return current;
  const set = { ...patch, updatedAt: now.toISOString() };
  await db.update(taxClasses).set(set).where(eq(taxClasses.code, current.code));
  return { ...current, ...set };
}

const inUse = (code: string, products: number) =>
  ApiError.conflict(`${products} product${products === 1 ? ' uses' : 's use'} the tax class ${code}; move ${products === 1 ? 'it' : 'them'} to another class first`);

/**
 * Refused (409) for the built-in classes and for a class products use; the class's rates go with it
 * (a trigger of migrations/0052, which also refuses the delete if a product took the class meanwhile).
 */
export async function deleteTaxClass(db: Database, code: string): Promise<void> {
  const current = await getTaxClass(db, code);
  if ((BUILT_IN_TAX_CLASSES as readonly string[]).includes(current.code)) {
    throw ApiError.conflict(`The ${current.code} tax class is built in and cannot be deleted`);
  }
  const usedBy = async () => (await db.select({ n: count() }).from(products).where(eq(products.taxClass, current.code)))[0]!.n;
  const users = await usedBy();
  if (users > 0) throw inUse(current.code, users);
  try {
    await db.delete(taxClasses).where(eq(taxClasses.code, current.code));
  } catch (error) {
    if (!isTriggerAbort(error, 'tax_class_in_use')) throw error;
    throw inUse(current.code, await usedBy());
  }
}
