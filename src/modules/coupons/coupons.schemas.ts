import { z } from '@hono/zod-openapi';
import { COUPON_TYPES, coupons } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { currencyEntries } from '../settings';
import { CouponCode, OwnMinSubtotal } from '../promotions/schemas';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';
import { COUPON_STATUS_DESCRIPTION, COUPON_STATUSES } from './coupon-status';

/** Most ids a coupon may be limited to: D1 binds at most 100 parameters per statement. */
export const MAX_COUPON_TARGETS = 100;

/** A coupon's code, and its own minimum subtotal in a currency: a coupon is a code promotion (promotions.schemas.ts). */
export { CouponCode, OwnMinSubtotal };

const valueDescription = "For `percentage`, the percent off (0 < value <= 100, at most 2 decimals); for `fixed`, the amount off in major units of the store's default currency.";

const currencyAmountsDescription =
  "A `fixed` coupon's amount in other currencies of the store, set by the shop instead of converted: a cart or order in one of them " +
  'is discounted by its `value` (major units of that currency) and needs its `minSubtotal` (when null, the default `minSubtotal` converted). ' +
  'Carts in a currency without an entry convert `value` and `minSubtotal` at its exchange rate. Empty for a `percentage` coupon, whose percent applies in every currency.';

/** A fixed coupon's own amounts off, and minimum subtotals, in other currencies. */
export const AmountsOffByCurrency = currencyEntries({
  value: z.number().positive().max(MAX_MAJOR_AMOUNT).openapi({ description: 'Amount off in major units of `currency`, with at most its decimals.', example: 5 }),
  minSubtotal: OwnMinSubtotal,
});

const Instant = z.iso
  .datetime({ offset: true })
  .transform((text) => new Date(text).toISOString())
  .openapi({ example: '2026-12-01T00:00:00.000Z', description: 'ISO 8601 date-time; stored in UTC.' });

const Ids = z
  .array(z.string().min(1).max(200))
  .max(MAX_COUPON_TARGETS)
  .transform((ids) => [...new Set(ids)]);

// The coupon's shape is still derived from the deprecated `coupons` table, whose columns it always
// showed: the rows live in `promotions` (is_coupon) since migration 0070, mapped by coupons.service.ts.
export const CouponSchema = createSelectSchema(coupons, {
  value: z.number().openapi({ description: valueDescription, example: 10 }),
  minSubtotal: z.number().nullable().openapi({ description: 'Smallest subtotal (major units of the default currency) the coupon applies to; null for any.' }),
  startsAt: Timestamp.nullable(),
  endsAt: Timestamp.nullable(),
  currencyAmounts: z
    .array(
      z.object({
        currency: z.string().openapi({ example: 'EUR' }),
        value: z.number().openapi({ description: 'Amount off, major units of `currency`.', example: 5 }),
        minSubtotal: z.number().nullable().openapi({ description: 'Smallest subtotal in `currency`; null: the default `minSubtotal` converted.', example: 20 }),
      }),
    )
    .openapi({ description: `${currencyAmountsDescription} By currency code.` }),
  productIds: z.array(z.string()),
  categoryIds: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .extend({ status: z.enum(COUPON_STATUSES).openapi({ description: COUPON_STATUS_DESCRIPTION }) })
  .openapi('Coupon', {
    description: 'A discount code. When `productIds` or `categoryIds` is non-empty, only lines of those products (or of products in those categories) are discounted.',
  });
export type Coupon = z.infer<typeof CouponSchema>;

const fields = {
  code: CouponCode,
  description: z.string().trim().max(500).nullable(),
  type: z.enum(COUPON_TYPES),
  value: z.number().positive().max(MAX_MAJOR_AMOUNT).openapi({ description: valueDescription, example: 10 }),
  minSubtotal: z.number().min(0).max(MAX_MAJOR_AMOUNT).nullable().openapi({ description: 'Major units of the default currency; null for any subtotal.' }),
  currencyAmounts: AmountsOffByCurrency.openapi({
    description: `${currencyAmountsDescription} One entry per currency, not the default one; the list replaces the stored one whole ([] removes them).`,
    example: [{ currency: 'EUR', value: 5, minSubtotal: 20 }],
  }),
  startsAt: Instant.nullable(),
  endsAt: Instant.nullable().openapi({ description: 'Must be after `startsAt`.' }),
  usageLimit: z.int().min(1).max(1_000_000_000).nullable().openapi({ description: 'Orders that may use the coupon in all; null for unlimited. Cannot go below `timesUsed`.' }),
  usageLimitPerCustomer: z.int().min(1).max(1_000_000_000).nullable().openapi({ description: 'Orders per customer (guests by email); null for unlimited.' }),
  productIds: Ids.openapi({ description: `Ids of existing products, at most ${MAX_COUPON_TARGETS}.` }),
  categoryIds: Ids.openapi({ description: `Ids of existing categories, at most ${MAX_COUPON_TARGETS}.` }),
  active: z.boolean(),
};
const serverColumns = { id: true, timesUsed: true, createdAt: true, updatedAt: true } as const;

export const CreateCouponBody = createInsertSchema(coupons, fields)
  .omit(serverColumns)
  .partial()
  .required({ code: true, type: true, value: true })
  .strict()
  .openapi('CreateCoupon');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateCouponBody = createUpdateSchema(coupons, fields)
  .omit(serverColumns)
  .partial()
  .strict()
  .openapi('UpdateCoupon', { description: 'A change of `type` needs a `value` in the same request.' });

export type CreateCouponInput = z.infer<typeof CreateCouponBody>;
export type UpdateCouponInput = z.infer<typeof UpdateCouponBody>;
