import { z } from '@hono/zod-openapi';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { Timestamp } from '../../lib/schemas';
import { currencyEntries } from '../settings';

/**
 * Shipping methods on the wire. Amounts are major units (docs/api.md, Money) of the store's default
 * currency, or of the entry's currency in `currencyRates`, checked against its minor units by the
 * service; weights are in the store's weightUnit.
 */

const MAX_BANDS = 50;
const MAX_WEIGHT = 1_000_000;

const Amount = z.number().min(0).max(MAX_MAJOR_AMOUNT).openapi({
  description:
    "Major units of the store's default currency in a method's `rate` (converted to a cart's currency at its exchange rate), of the entry's `currency` in `currencyRates`.",
  example: 4.99,
});

/** Each band's key must rise strictly from one band to the next. */
function ascending<B>(key: (band: B) => number | null, field: string) {
  return (bands: B[], ctx: z.RefinementCtx) => {
    bands.forEach((band, i) => {
      const value = key(band);
      if (i > 0 && value !== null && key(bands[i - 1]!) !== null && value <= key(bands[i - 1]!)!) {
        ctx.addIssue({ code: 'custom', path: [i, field], message: `must be above the previous band's ${field} (bands ascend, without duplicates)` });
      }
    });
  };
}

const FlatRate = z.strictObject({ type: z.literal('flat'), amount: Amount }).openapi('ShippingFlatRate', { description: 'One amount for any cart.' });

const WeightBand = z.strictObject({
  upTo: z
    .number()
    .min(0)
    .max(MAX_WEIGHT)
    .nullable()
    .openapi({ description: "Carts weighing up to this (inclusive), in the store's weightUnit; null for the last, open band.", example: 2 }),
  amount: Amount,
});
const WeightRate = z
  .strictObject({
    type: z.literal('weight'),
    bands: z
      .array(WeightBand)
      .min(1)
      .max(MAX_BANDS)
      .superRefine(ascending((b) => b.upTo, 'upTo'))
      .superRefine((bands, ctx) => {
        bands.forEach((band, i) => {
          if (band.upTo === null && i < bands.length - 1) ctx.addIssue({ code: 'custom', path: [i, 'upTo'], message: 'may be null only in the last band' });
        });
      }),
  })
  .openapi('ShippingWeightRate', {
    description:
      "By the cart's weight (the sum of its variants' `weight` x quantity): the first band whose `upTo` the weight does not exceed. " +
      'A cart heavier than every band (the last one closed) is not served by the method.',
  });

const PriceBand = z.strictObject({
  from: Amount.openapi({ description: 'Subtotals after discounts from this amount (major units, as `amount`).', example: 0 }),
  amount: Amount,
});
const PriceRate = z
  .strictObject({
    type: z.literal('price'),
    bands: z
      .array(PriceBand)
      .min(1)
      .max(MAX_BANDS)
      .superRefine(ascending((b) => b.from, 'from')),
  })
  .openapi('ShippingPriceRate', {
    description: "By the cart's subtotal after discounts: the last band whose `from` it reaches. A subtotal below the first band's `from` is not served by the method.",
  });

export const ShippingRateSchema = z.discriminatedUnion('type', [FlatRate, WeightRate, PriceRate]).openapi('ShippingRate', {
  description:
    "How the method prices a cart: exactly one kind, named by `type`. In a method's `rate`, amounts are in the store's default currency; in `currencyRates`, in the entry's currency.",
});

const CURRENCY_RATES =
  'The rate and `freeAbove` in other currencies of the store, set by the shop instead of converted: a cart in one of them is priced by its entry ' +
  '(amounts in major units of that currency; the kind may differ from `rate`), a cart in a currency without one by `rate` and `freeAbove` converted at its exchange rate.';

const freeAboveDescription = 'Free at or above this subtotal after discounts; null for never.';

const DeliveryDays = z.int().min(0).max(365);

export const ShippingMethodSchema = z
  .object({
    id: z.string().openapi({ example: 'smeth_01JD0000000000000000000000' }),
    zoneId: z.string(),
    name: z.string(),
    carrier: z.string().nullable(),
    minDeliveryDays: z.int().nullable(),
    maxDeliveryDays: z.int().nullable(),
    active: z.boolean(),
    position: z.int(),
    rate: ShippingRateSchema,
    freeAbove: z
      .number()
      .nullable()
      .openapi({ description: "A subtotal after discounts (major units of the store's default currency) at or above which the method costs 0; null for never." }),
    currencyRates: z
      .array(
        z.object({
          currency: z.string().openapi({ example: 'EUR' }),
          rate: ShippingRateSchema,
          freeAbove: z
            .number()
            .nullable()
            .openapi({ description: `${freeAboveDescription} Major units of \`currency\`.` }),
        }),
      )
      .openapi({ description: `${CURRENCY_RATES} By currency code.` }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('ShippingMethod', { description: 'A way to ship to a zone, offered to carts whose address the zone serves.' });
export type ShippingMethod = z.infer<typeof ShippingMethodSchema>;

const fields = {
  name: z.string().trim().min(1).max(200).openapi({ example: 'DHL Paket' }),
  carrier: z.string().trim().min(1).max(100).nullable().openapi({ example: 'DHL' }),
  minDeliveryDays: DeliveryDays.nullable().openapi({ description: 'Working days, at least.', example: 1 }),
  maxDeliveryDays: DeliveryDays.nullable().openapi({ description: 'Working days, at most (not below minDeliveryDays).', example: 3 }),
  active: z.boolean().openapi({ description: 'Inactive methods are not offered (and a cart that chose one ships by the cheapest left).' }),
  position: z.int().min(0).max(10_000).openapi({ description: "Order among the zone's methods, lowest first." }),
  rate: ShippingRateSchema,
  freeAbove: Amount.nullable().openapi({ description: "Free at or above this subtotal after discounts (major units of the store's default currency); null for never." }),
  currencyRates: currencyEntries({
    rate: ShippingRateSchema,
    freeAbove: Amount.nullable()
      .optional()
      .openapi({ description: `${freeAboveDescription} Major units of \`currency\`; absent is null.` }),
  }).openapi({
    description: `${CURRENCY_RATES} One entry per currency, not the default one; the list replaces the stored one whole ([] removes them).`,
    example: [{ currency: 'EUR', rate: { type: 'flat', amount: 4.9 }, freeAbove: 70 }],
  }),
};

export const CreateShippingMethodBody = z.strictObject(fields).partial().required({ name: true, rate: true }).openapi('CreateShippingMethod');
export const UpdateShippingMethodBody = z.strictObject(fields).partial().openapi('UpdateShippingMethod', { description: 'Fields to change; `rate` is replaced whole.' });

export type CreateShippingMethodInput = z.infer<typeof CreateShippingMethodBody>;
export type UpdateShippingMethodInput = z.infer<typeof UpdateShippingMethodBody>;
export type ShippingRateInput = z.infer<typeof ShippingRateSchema>;
