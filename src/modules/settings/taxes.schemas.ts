import { z } from '@hono/zod-openapi';
import { taxRates } from '../../db/schema';
import { ISO_COUNTRY_CODES } from '../../lib/country-codes';
import { decimalText } from '../checkout';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';

/** Most decimals a tax percent keeps (it is stored as exact decimal text). */
export const TAX_RATE_DECIMALS = 4;

/** ISO 3166-1 alpha-2, accepted in any case and upper-cased. */
export const TaxCountry = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code, like US')
  .transform((code) => code.toUpperCase())
  .refine((code) => ISO_COUNTRY_CODES.has(code), 'is not an assigned ISO 3166-1 country code')
  .openapi({ example: 'US', description: 'ISO 3166-1 alpha-2, upper-cased.' });

/** The subdivision part of an ISO 3166-2 code (`CA` of `US-CA`), upper-cased. */
export const TaxRegion = z
  .string()
  .regex(/^[A-Za-z0-9]{1,3}$/, 'must be the 1 to 3 letters or digits of an ISO 3166-2 subdivision, like CA for US-CA')
  .transform((code) => code.toUpperCase())
  .openapi({ example: 'CA', description: 'Subdivision code within the country (CA for US-CA), upper-cased; null for the whole country.' });

/** A tax class's code: lower-case letters, digits and dashes. */
export const TaxClassCode = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1 to 40 lower-case letters, digits or dashes, like reduced')
  .openapi({ example: 'reduced', description: 'Code of a tax class (`GET /api/settings/tax-classes`).' });

const Rate = z
  .number()
  .min(0)
  .max(100)
  .refine((n) => decimalText(n, TAX_RATE_DECIMALS) !== null, `must have at most ${TAX_RATE_DECIMALS} decimals`)
  .openapi({ description: `Percent, 0 to 100, at most ${TAX_RATE_DECIMALS} decimals; kept as exact decimal text.`, example: 8.875 });

export const TaxRateSchema = createSelectSchema(taxRates, {
  rate: z.number().openapi({ description: 'Percent.', example: 8.875 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('TaxRate', {
  description:
    'A tax rate for one tax class in a country, or in one region of it. A region rate applies instead of its country rate; ' +
    "a class with no rate for a place pays the standard class's rate there, and the `zero` class is never taxed (docs/api.md, Taxes).",
});
export type TaxRate = z.infer<typeof TaxRateSchema>;

const fields = {
  name: z.string().trim().min(1).max(200).openapi({ example: 'California sales tax' }),
  country: TaxCountry,
  region: TaxRegion.nullable(),
  rate: Rate,
  taxClass: TaxClassCode.refine((code) => code !== 'zero', 'cannot be zero: the zero class is never taxed').openapi({
    description:
      'The tax class this rate is for (`GET /api/settings/tax-classes`; an unknown one is 422); `standard` when left out. Not `zero`, which is never taxed. ' +
      "A class without a rate for a place pays the standard class's rate there.",
  }),
  shippingTaxable: z.boolean().openapi({ description: 'Whether shipping is taxed at this rate too.' }),
};
const serverColumns = { id: true, createdAt: true, updatedAt: true } as const;

export const CreateTaxRateBody = createInsertSchema(taxRates, fields)
  .omit(serverColumns)
  .partial()
  .required({ name: true, country: true, rate: true })
  .strict()
  .openapi('CreateTaxRate');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateTaxRateBody = createUpdateSchema(taxRates, fields).omit(serverColumns).partial().strict().openapi('UpdateTaxRate');

export type CreateTaxRateInput = z.infer<typeof CreateTaxRateBody>;
export type UpdateTaxRateInput = z.infer<typeof UpdateTaxRateBody>;
