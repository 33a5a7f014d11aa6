import { z } from '@hono/zod-openapi';
import { PRICE_LIST_STATUSES, priceLists } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Instant, Timestamp } from '../../lib/schemas';
import { CurrencyCode } from '../settings/schemas';

/** Most prices one list holds: a wholesale list of a mid-size catalogue, written in one batch. */
export const MAX_PRICES_PER_LIST = 1000;
/** Most units a tier may start at. */
const MAX_QUANTITY = 1_000_000;

export const APPLY_RULE =
  'A list applies to a signed-in customer when it is `active`, now is within `startsAt`..`endsAt`, its currency is the one shown or charged, and it has no ' +
  '`customerGroupId` (every signed-in customer) or the customer is in that group. Of the prices of every list that applies for a variant, those whose ' +
  '`minQuantity` the quantity reaches (1 on catalogue reads, the line quantity in carts and orders), the lowest wins, and only when below the public price: ' +
  'a price list never raises a price. Anonymous callers and API keys always see and pay the public price.';

const PriceSchema = z
  .object({
    variantId: z.string().openapi({ example: 'var_01JD0000000000000000000000' }),
    minQuantity: z.int().openapi({ description: 'The price applies to lines of at least this many units.', example: 10 }),
    amount: z.number().openapi({ description: "Unit price in major units of the list's `currency`.", example: 8.5 }),
  })
  .openapi('PriceListPrice');

export const PriceListSchema = createSelectSchema(priceLists, {
  status: z.enum(PRICE_LIST_STATUSES).openapi({ description: 'Only `active` lists apply; `draft` ones are being prepared.' }),
  customerGroupId: z.string().nullable().openapi({ description: 'The customer group the list is for; null: every signed-in customer.' }),
  currency: z.string().openapi({ description: "ISO 4217 code of the store's currency the amounts are in; it cannot change.", example: 'USD' }),
  startsAt: Timestamp.nullable(),
  endsAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .extend({ prices: z.array(PriceSchema).openapi({ description: 'By variant, then tier.' }) })
  .openapi('PriceList', { description: `Prices of variants for a customer group or every signed-in customer. ${APPLY_RULE}` });
export type PriceList = z.infer<typeof PriceListSchema>;

const PriceInput = z
  .strictObject({
    variantId: z.string().min(1).max(200).openapi({ description: 'Id of an existing variant.', example: 'var_01JD0000000000000000000000' }),
    minQuantity: z.int().min(1).max(MAX_QUANTITY).default(1).openapi({ description: 'The price applies to lines of at least this many units; 1 when omitted.', example: 10 }),
    amount: z.number().min(0).max(MAX_MAJOR_AMOUNT).openapi({ description: "Unit price in major units of the list's currency, with at most its decimals.", example: 8.5 }),
  })
  .openapi('PriceListPriceInput');

const Prices = z
  .array(PriceInput)
  .max(MAX_PRICES_PER_LIST)
  .superRefine((prices, ctx) => {
    const seen = new Set<string>();
    prices.forEach((p, i) => {
      const key = `${p.variantId} ${p.minQuantity}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'minQuantity'], message: `a price for ${p.variantId} from ${p.minQuantity} appears twice` });
      seen.add(key);
    });
  })
  .openapi({ description: `At most ${MAX_PRICES_PER_LIST}, one per variant and \`minQuantity\`. On a write the list replaces the set; \`[]\` clears it.` });

const fields = {
  name: z.string().trim().min(1).max(100).openapi({ example: 'Wholesale USD' }),
  description: z.string().trim().max(500).nullable(),
  customerGroupId: z.string().min(1).max(200).nullable().openapi({ description: 'Id of an existing customer group; null or omitted: every signed-in customer.' }),
  currency: CurrencyCode.openapi({ description: "One of the store's currencies (the default one included); it cannot change later.", example: 'USD' }),
  status: z.enum(PRICE_LIST_STATUSES).openapi({ description: '`draft` when omitted: only `active` lists apply.' }),
  startsAt: Instant.nullable(),
  endsAt: Instant.nullable().openapi({ description: 'Must be after `startsAt`.' }),
};
const serverColumns = { id: true, createdAt: true, updatedAt: true } as const;

export const CreatePriceListBody = createInsertSchema(priceLists, fields)
  .omit(serverColumns)
  .extend({ prices: Prices })
  .partial()
  .required({ name: true, currency: true })
  .strict()
  .openapi('CreatePriceList');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdatePriceListBody = createUpdateSchema(priceLists, fields)
  .omit({ ...serverColumns, currency: true })
  .extend({ prices: Prices })
  .partial()
  .strict()
  .openapi('UpdatePriceList', { description: 'The currency cannot change: make another list.' });

export type CreatePriceListInput = z.infer<typeof CreatePriceListBody>;
export type UpdatePriceListInput = z.infer<typeof UpdatePriceListBody>;
