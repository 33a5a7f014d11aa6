import { z } from '@hono/zod-openapi';
import { currencies } from '../../db/schema';
import { decimalText } from '../checkout';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';

/** Most decimals an exchange rate keeps (it is stored as exact decimal text). */
export const RATE_DECIMALS = 8;

/** An ISO 4217 code; accepted in any case and upper-cased (`eur` is `EUR`). */
export const CurrencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code, like EUR')
  .transform((code) => code.toUpperCase())
  .openapi({ example: 'EUR', description: 'ISO 4217 code (three letters), upper-cased.' });

const PricesIncludeTax = z.boolean().nullable().openapi({
  description:
    "Whether prices in this currency include tax (EUR and GBP prices usually do, USD prices usually do not); null follows the store's `pricesIncludeTax` (`GET /api/settings`).",
  example: true,
});

const ExchangeRate = z
  .number()
  .positive()
  .max(1_000_000_000)
  .refine((n) => decimalText(n, RATE_DECIMALS) !== null, `must have at most ${RATE_DECIMALS} decimals`);

export const CurrencySchema = createSelectSchema(currencies, {
  exchangeRate: z.number().openapi({ description: 'Units of this currency per unit of the default currency; always 1 for the default currency.', example: 0.92 }),
  pricesIncludeTax: PricesIncludeTax,
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .extend({ isDefault: z.boolean().openapi({ description: "True for the store's default currency (`GET /api/settings`)." }) })
  .openapi('Currency');
export type Currency = z.infer<typeof CurrencySchema>;

const fields = {
  code: CurrencyCode,
  name: z.string().trim().min(1).max(100).openapi({ example: 'Euro' }),
  symbol: z.string().trim().min(1).max(10).openapi({ example: '€' }),
  minorUnits: z.int().min(0).max(4).openapi({ description: 'Digits of the minor unit: 2 for EUR, 0 for JPY, 3 for KWD.', example: 2 }),
  exchangeRate: ExchangeRate.openapi({
    description: `Units of this currency per unit of the default currency, positive, at most ${RATE_DECIMALS} decimals; kept as exact decimal text.`,
    example: 0.92,
  }),
  enabled: z.boolean().openapi({ description: 'Disabled currencies are hidden from public callers.' }),
  pricesIncludeTax: PricesIncludeTax,
};
const serverColumns = { createdAt: true, updatedAt: true } as const;

export const CreateCurrencyBody = createInsertSchema(currencies, fields)
  .omit(serverColumns)
  .partial()
  .required({ code: true, name: true, symbol: true, exchangeRate: true })
  .strict()
  .openapi('CreateCurrency');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateCurrencyBody = createUpdateSchema(currencies, fields)
  .omit({ ...serverColumns, code: true })
  .partial()
  .strict()
  .openapi('UpdateCurrency', { description: 'The code cannot change: orders and carts keep it.' });

export type CreateCurrencyInput = z.infer<typeof CreateCurrencyBody>;
export type UpdateCurrencyInput = z.infer<typeof UpdateCurrencyBody>;

/** `{code}` in a currency path, in any case. */
export const CurrencyParams = z.object({
  code: z
    .string()
    .min(1)
    .max(10)
    .transform((code) => code.toUpperCase())
    .openapi({ param: { name: 'code', in: 'path' }, example: 'EUR' }),
});
