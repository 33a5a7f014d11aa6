import { and, eq, exists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { taxClasses, taxRates } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { decimalText } from '../checkout';
import { taxRateListQuery } from './taxes.query';
import { type CreateTaxRateInput, TAX_RATE_DECIMALS, type TaxRate, type UpdateTaxRateInput } from './taxes.schemas';

type TaxRateRow = typeof taxRates.$inferSelect;

const toTaxRate = (row: TaxRateRow): TaxRate => ({ ...row, rate: Number(row.rate) });
const rateText = (rate: number) => decimalText(rate, TAX_RATE_DECIMALS)!;

/**
 * The unique index on (country, coalesce(region, ''), tax_class) is an expression index, which SQLite
 * reports by index name rather than by column, so the shared column mapping cannot name the field.
 */
async function withPlaceConflict<T>(row: { country: string; region: string | null; taxClass: string }, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const text = String((error as Error)?.message ?? error) + String((error as { cause?: unknown })?.cause ?? '');
    if (!/UNIQUE constraint failed/.test(text)) throw error;
    const place = row.region ? `${row.country}-${row.region}` : `${row.country} (whole country)`;
    throw ApiError.conflict(`A ${row.taxClass} tax rate for ${place} already exists; change that one instead`, row.region ? 'region' : 'country', {
      code: 'already_exists',
      problem: `has a ${row.taxClass} tax rate already (${place}); change that one instead`,
    });
  }
}

/** Rates name their class by code without a foreign key (the class's delete takes its rates): the write itself checks the class is there. */
const classExists = (db: Database, code: string) => exists(db.select({ one: sql`1` }).from(taxClasses).where(eq(taxClasses.code, code)));
const unknownClass = (code: string) => ApiError.validation([{ field: 'taxClass', code: 'not_found', problem: `no tax class '${code}' (see GET /api/settings/tax-classes)` }]);

export async function listTaxRates(db: Database, query: ParsedListQuery<typeof taxRateListQuery.filters>) {
  const { items, total } = await listTable<TaxRateRow, typeof taxRateListQuery.filters>(db, taxRates, taxRateListQuery, query);
  return { items: items.map(toTaxRate), total };
}

async function getRow(db: Database, id: string): Promise<TaxRateRow> {
  const [row] = await db.select().from(taxRates).where(eq(taxRates.id, id)).limit(1);
  if (!row) throw ApiError.notFound('Tax rate', id);
  return row;
}

export async function getTaxRate(db: Database, id: string): Promise<TaxRate> {
  return toTaxRate(await getRow(db, id));
}

export async function createTaxRate(db: Database, input: CreateTaxRateInput, now = new Date()): Promise<TaxRate> {
  const ts = now.toISOString();
  const row: TaxRateRow = {
    id: newId(ID_PREFIX.taxRate, now.getTime()),
    name: input.name,
    country: input.country,
    region: input.region ?? null,
    rate: rateText(input.rate),
    taxClass: input.taxClass ?? 'standard',
    shippingTaxable: input.shippingTaxable ?? false,
    createdAt: ts,
    updatedAt: ts,
  };
  const inserted = await withPlaceConflict(row, () => insertWhere(db, taxRates, row, classExists(db, row.taxClass)));
  if (inserted.meta.changes === 0) throw unknownClass(row.taxClass);
  return toTaxRate(row);
}

export async function updateTaxRate(db: Database, id: string, patch: UpdateTaxRateInput, now = new Date()): Promise<TaxRate> {
  const current = await getRow(db, id);
  if (Object.keys(patch).length === 0) return toTaxRate(current);
  const { rate, ...rest } = patch;
  const set = { ...rest, ...(rate !== undefined ? { rate: rateText(rate) } : {}), updatedAt: now.toISOString() };
  const next = { ...current, ...set };
  const classGiven = rest.taxClass !== undefined && rest.taxClass !== current.taxClass;
  const updated = await withPlaceConflict(next, () =>
    db
      .update(taxRates)
      .set(set)
      .where(and(eq(taxRates.id, current.id), classGiven ? classExists(db, next.taxClass) : undefined)),
  );
  if (updated.meta.changes === 0) throw classGiven ? unknownClass(next.taxClass) : ApiError.notFound('Tax rate', id);
  return toTaxRate(next);
}

export async function deleteTaxRate(db: Database, id: string): Promise<void> {
  const current = await getRow(db, id);
  await db.delete(taxRates).where(eq(taxRates.id, current.id));
}
