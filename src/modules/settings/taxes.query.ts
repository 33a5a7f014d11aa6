import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { taxRates } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, type FilterSpec } from '../../lib/query';
import { TaxClassCode, TaxCountry, TaxRateSchema, TaxRegion } from './taxes.schemas';

/** Exact match on a code column, validated like the body field it filters. */
function codeFilter(column: SQLiteColumn, schema: z.ZodType<string, string>, description: string): FilterSpec<string | undefined> {
  return { schema: schema.optional().openapi({ description }) as z.ZodType<string | undefined, string | undefined>, where: (value) => eq(column, value) };
}

export const taxRateListQuery = defineListQuery({
  resource: 'taxRate',
  id: taxRates.id,
  sortable: { country: taxRates.country, name: taxRates.name, createdAt: taxRates.createdAt, id: taxRates.id },
  defaultSort: [
    { field: 'country', direction: 'asc' },
    { field: 'name', direction: 'asc' },
  ],
  selectable: fieldTreeFromSchema(TaxRateSchema),
  filters: {
    country: codeFilter(taxRates.country, TaxCountry, 'Country (ISO 3166-1 alpha-2, any case).'),
    region: codeFilter(taxRates.region, TaxRegion, 'Region code within the country (any case).'),
    tax_class: codeFilter(
      taxRates.taxClass,
      z
        .string()
        .transform((code) => code.toLowerCase())
        .pipe(TaxClassCode),
      'Code of a tax class (any case): only its rates.',
    ),
  },
});
