import { z } from '@hono/zod-openapi';
import { PROMOTION_TARGETS, PROMOTION_TYPES } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { Instant, Timestamp } from '../../lib/schemas';
import { currencyEntries } from '../settings';
import { CurrencyCode } from '../settings/schemas';
import { NOT_APPLICABLE_CONDITIONS } from '../checkout';

/** The code a shopper enters, for a code promotion and a coupon alike (a coupon is a code promotion). */
export const CouponCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,40}$/, 'must be 3 to 40 letters, digits, hyphens or underscores')
  .transform((code) => code.toUpperCase())
  .openapi({ example: 'SUMMER-10', description: 'Stored upper-case; customers may type it in any case.' });

/** A discount's own minimum subtotal in one currency (a coupon's or a promotion's `currencyAmounts` entry). */
export const OwnMinSubtotal = z
  .number()
  .min(0)
  .max(MAX_MAJOR_AMOUNT)
  .nullable()
  .optional()
  .openapi({ description: 'Smallest subtotal in `currency`; null or absent: the default `minSubtotal` converted.', example: 20 });

/** Most ids one list of a promotion holds: D1 binds at most 100 parameters per statement. */
export const MAX_PROMOTION_IDS = 100;
const MAX_COUNT = 1_000_000_000;

export const PROMOTION_RULES =
  'Automatic (no `code`) or by code. The promotions that apply are applied highest `priority` first, each on what the ones before it left; ' +
  'two apply together only when each combines with the kind of the other (`combinesWithPromotions`: automatic ones, `combinesWithCodes`: codes), ' +
  'and of the sets that may apply together the one that takes the most off the cart wins. Rules and examples: docs/promotions.md.';

const Ids = z
  .array(z.string().min(1).max(200))
  .max(MAX_PROMOTION_IDS)
  .transform((ids) => [...new Set(ids)]);

const productSetShape = {
  productIds: Ids.optional().openapi({ description: `Ids of existing products, at most ${MAX_PROMOTION_IDS}.` }),
  categoryIds: Ids.optional().openapi({ description: `Ids of existing categories (their subcategories count too), at most ${MAX_PROMOTION_IDS}.` }),
  brandIds: Ids.optional().openapi({ description: `Ids of existing brands, at most ${MAX_PROMOTION_IDS}.` }),
};
const ProductSetInput = z.strictObject(productSetShape);
const ProductSetSchema = z
  .object({ productIds: z.array(z.string()), categoryIds: z.array(z.string()), brandIds: z.array(z.string()) })
  .openapi('PromotionProductSet', { description: 'Products by id, category or brand; all three empty: every product.' });

const Quantity = z.int().min(1).max(MAX_COUNT);
const Percent = z.number().positive().max(100);

const BuyXGetYInput = z.strictObject({
  buy: z.strictObject({ quantity: Quantity.openapi({ description: 'Units bought per `get.quantity` units got.', example: 2 }), ...productSetShape }),
  get: z.strictObject({
    quantity: Quantity.openapi({ description: 'Units got per `buy.quantity` units bought.', example: 1 }),
    percent: Percent.optional().openapi({ description: 'Percent off the units got (at most 2 decimals); 100 (the default): free.', example: 100 }),
    ...productSetShape,
  }),
});
const FreeShippingInput = z.strictObject({
  methodIds: Ids.optional().openapi({ description: 'Only these shipping methods are made free (empty: any).' }),
  zoneIds: Ids.optional().openapi({ description: 'Only addresses in these shipping zones (empty: any).' }),
});

const PromotionCurrencyAmounts = currencyEntries({
  value: z
    .number()
    .positive()
    .max(MAX_MAJOR_AMOUNT)
    .optional()
    .openapi({ description: "A `fixed` promotion's amount off in major units of `currency` (required for it; refused for other types).", example: 5 }),
  minSubtotal: OwnMinSubtotal,
});

const valueDescription =
  "For `percentage`, the percent off (0 < value <= 100, at most 2 decimals); for `fixed`, the amount off in major units of the store's default currency. " +
  'Unused (0) for `buy_x_get_y` and `free_shipping`.';

const fields = {
  name: z.string().trim().min(1).max(200).openapi({ description: 'Shown to shoppers on each line it discounts.', example: 'Winter sale' }),
  description: z.string().trim().max(500).nullable(),
  code: CouponCode.nullable().openapi({ description: 'The code a shopper enters; null (the default): automatic. Stored upper case, unique among promotions and coupons.' }),
  type: z.enum(PROMOTION_TYPES),
  value: z.number().min(0).max(MAX_MAJOR_AMOUNT).openapi({ description: valueDescription, example: 10 }),
  currencyAmounts: PromotionCurrencyAmounts.openapi({
    description:
      "Own amounts in other currencies of the store (not the default one), instead of the default ones converted: a `fixed` promotion's `value` (required) and `minSubtotal`; " +
      "every other type's `minSubtotal` only (free shipping over 50.00 EUR whatever the exchange rate). The list replaces the stored one whole.",
  }),
  target: z
    .enum(PROMOTION_TARGETS)
    .openapi({ description: '`percentage` and `fixed`: `order` (the default) discounts every line not excluded; `items` only the lines matching `include`.' }),
  buyXGetY: BuyXGetYInput.nullable().openapi({ description: 'Required for (and only for) `buy_x_get_y`. An empty `get` set: the `buy` set.' }),
  freeShipping: FreeShippingInput.nullable().openapi({ description: 'For `free_shipping` only: the methods and zones it is limited to.' }),
  minSubtotal: z
    .number()
    .min(0)
    .max(MAX_MAJOR_AMOUNT)
    .nullable()
    .openapi({ description: 'Smallest cart subtotal before discounts, major units of the default currency; null: any.' }),
  minQuantity: Quantity.nullable().openapi({ description: 'Fewest units of the matching lines; null: any.' }),
  include: ProductSetInput.openapi({ description: 'The lines that match (empty: every line).' }),
  exclude: ProductSetInput.openapi({ description: 'Lines never discounted nor counted by the promotion.' }),
  customerGroupIds: Ids.openapi({ description: 'Only customers in one of these groups (empty: everyone, guests too).' }),
  currencies: z.array(CurrencyCode).max(50).openapi({ description: 'Only carts in these currencies of the store (empty: every currency).' }),
  startsAt: Instant.nullable(),
  endsAt: Instant.nullable().openapi({ description: 'Must be after `startsAt`.' }),
  usageLimit: Quantity.nullable().openapi({ description: 'Orders that may use it in all; null: unlimited. Cannot go below `timesUsed`.' }),
  perCustomerLimit: Quantity.nullable().openapi({ description: 'Orders per customer (guests by email); null: unlimited.' }),
  priority: z.int().min(-1000).max(1000).openapi({ description: 'Higher applies first (default 0).' }),
  combinesWithPromotions: z.boolean().openapi({ description: 'May apply together with automatic promotions (default false).' }),
  combinesWithCodes: z.boolean().openapi({ description: 'May apply together with codes, coupons included (default false).' }),
  active: z.boolean().openapi({ description: 'Switched on (the default); off, it never applies.' }),
};

export const CreatePromotionBody = z.strictObject(fields).partial().required({ name: true, type: true }).openapi('CreatePromotion', { description: PROMOTION_RULES });
export const UpdatePromotionBody = z
  .strictObject(fields)
  .partial()
  .openapi('UpdatePromotion', { description: 'Only the fields given change; `include`, `exclude`, `buyXGetY` and `freeShipping` are replaced whole.' });
export type CreatePromotionInput = z.infer<typeof CreatePromotionBody>;
export type UpdatePromotionInput = z.infer<typeof UpdatePromotionBody>;

export const PromotionSchema = z
  .object({
    id: z.string().openapi({ example: 'promo_01JD0000000000000000000000' }),
    name: z.string(),
    description: z.string().nullable(),
    code: z.string().nullable(),
    type: z.enum(PROMOTION_TYPES),
    value: z.number().openapi({ description: valueDescription }),
    currencyAmounts: z.array(z.object({ currency: z.string(), value: z.number().nullable().openapi({ description: 'null unless `fixed`.' }), minSubtotal: z.number().nullable() })),
    target: z.enum(PROMOTION_TARGETS),
    buyXGetY: z
      .object({
        buy: ProductSetSchema.extend({ quantity: z.int() }),
        get: ProductSetSchema.extend({ quantity: z.int(), percent: z.number() }),
      })
      .nullable(),
    freeShipping: z.object({ methodIds: z.array(z.string()), zoneIds: z.array(z.string()) }).nullable(),
    minSubtotal: z.number().nullable(),
    minQuantity: z.int().nullable(),
    include: ProductSetSchema,
    exclude: ProductSetSchema,
    customerGroupIds: z.array(z.string()),
    currencies: z.array(z.string()),
    startsAt: Timestamp.nullable(),
    endsAt: Timestamp.nullable(),
    usageLimit: z.int().nullable(),
    perCustomerLimit: z.int().nullable(),
    timesUsed: z.int().openapi({ description: 'Orders that used it.' }),
    priority: z.int(),
    combinesWithPromotions: z.boolean(),
    combinesWithCodes: z.boolean(),
    active: z.boolean(),
    isCoupon: z.boolean().openapi({
      description: 'A coupon (a code promotion on items, listed here too): read and changed through `/api/coupons/{id}`; PATCH and DELETE here are 409.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Promotion', { description: PROMOTION_RULES });
export type PromotionOut = z.infer<typeof PromotionSchema>;

/** A promotion's share of a line's discount, as carts and orders show it. */
export const LinePromotionSchema = z
  .object({
    promotionId: z.string().openapi({ description: 'The promotion (or coupon) id; it may since have been changed or deleted.' }),
    name: z.string().openapi({ description: 'Its name when applied (a coupon: its code).' }),
    amount: z.number().openapi({ description: 'Taken off the line, major units of the currency.' }),
  })
  .openapi('LinePromotion');

/** A promotion as a cart or order applied it in all: its lines' share and what it took off shipping. */
export const AppliedPromotionSchema = z
  .object({
    promotionId: z.string().openapi({ description: 'The promotion (or coupon) id; it may since have been changed or deleted.' }),
    name: z.string().openapi({ description: 'Its name when applied (a coupon: its code).' }),
    code: z.string().nullable().openapi({ description: 'The code it was entered by; null for an automatic promotion.' }),
    amount: z.number().openapi({ description: "Everything it took off, the lines' share and shipping's together, major units of the currency." }),
    shippingAmount: z.number().openapi({ description: 'The part of `amount` taken off shipping (a `free_shipping` promotion: the shipping it made free).' }),
  })
  .openapi('AppliedPromotion');

export const NotApplicableConditionSchema = z.enum(NOT_APPLICABLE_CONDITIONS);
