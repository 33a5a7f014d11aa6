import { z } from '@hono/zod-openapi';
import { storeSettings, WEIGHT_UNITS } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';
import { MAX_ALLOWED_ORIGINS } from '../../lib/origins';
import { AllowedOrigins } from '../../lib/schemas';
import { CurrencyCode } from './currencies.schemas';
import { ApiVersion } from '../../versions/schemas';

const API_VERSION_DESCRIPTION =
  'The API version (docs/versioning.md) a request is answered in when it sends no `Store-Version` header and its key is pinned to none (a signed-in user, no credential), ' +
  'and the version new API keys are pinned to unless they name one. A change reaches every server within 30 seconds.';

/** An amount in the default currency's major unit; its decimals are checked against that currency's minor units. */
const StoreAmount = z.number().min(0).max(MAX_MAJOR_AMOUNT);

const DEPRECATED =
  'Deprecated (kept at least until the Sunset date its answers carry): an alias of the flat method "Standard" of the rest-of-world zone "Everywhere" ' +
  'that the shipping zones migration made of it; set shipping at `/api/settings/shipping-zones` instead. Reads null once that method is deleted; ' +
  'writing it then is 409. A PATCH that writes it is answered with `Deprecation`, `Sunset` and `Link` headers.';
const amounts = {
  shippingFlatRate: StoreAmount.openapi({
    description: `The "Standard" method's flat amount, in major units of the default currency. ${DEPRECATED}`,
    example: 4.95,
    deprecated: true,
  }),
  freeShippingThreshold: StoreAmount.nullable().openapi({
    description: `The "Standard" method's \`freeAbove\` (major units of the default currency); null for never. ${DEPRECATED}`,
    example: 50,
    deprecated: true,
  }),
};

const PricesIncludeTax = z.boolean().openapi({
  description:
    'When true, catalogue prices include tax: the shopper pays the listed price, with the tax inside it. ' +
    "When false, tax is added on top of the listed price. A currency's own `pricesIncludeTax` (`/api/settings/currencies`) overrides this for prices in that currency.",
  example: false,
});

const ReturnWindowDays = z.int().min(0).max(365).openapi({
  description:
    "Days a customer may ask to return an order's lines, counted from its last delivery (else its last shipping, else its placement); 0 closes returns to customers. Staff may return lines any time (docs/returns.md).",
  example: 30,
});

const ALLOWED_ORIGINS_DESCRIPTION =
  'Web origins whose pages may call the API from a browser (CORS): exact origins (`https://shop.example`, `http://localhost:5173`) ' +
  'or one wildcard label in front (`https://*.shop.example`: every subdomain, not the domain itself). Scheme and port must match. ' +
  `At most ${MAX_ALLOWED_ORIGINS}. The deployment's \`CORS_ORIGINS\` adds to them. A change reaches every server within 30 seconds.`;

export const SettingsSchema = createSelectSchema(storeSettings, {
  shippingFlatRate: amounts.shippingFlatRate.nullable(),
  freeShippingThreshold: amounts.freeShippingThreshold,
  allowedOrigins: z.array(z.string()).openapi({ description: ALLOWED_ORIGINS_DESCRIPTION, example: ['https://shop.example', 'https://*.shop.example'] }),
  pricesIncludeTax: PricesIncludeTax,
  returnWindowDays: ReturnWindowDays,
  apiVersion: ApiVersion.openapi({ description: API_VERSION_DESCRIPTION }),
  updatedAt: Timestamp,
})
  .omit({ id: true })
  .openapi('StoreSettings', {
    description: 'The store-wide settings. Catalogue prices, coupon amounts and these shipping amounts are in `defaultCurrency` (stored as its minor units).',
  });
export type Settings = z.infer<typeof SettingsSchema>;

const fields = {
  name: z.string().trim().min(1).max(200),
  contactEmail: z.email().max(254).nullable(),
  defaultCurrency: CurrencyCode.openapi({
    description:
      'An existing, enabled currency whose exchange rate is 1 and whose minor units match the current default (409 otherwise): prices are stored as minor units of the default currency and are not converted.',
  }),
  weightUnit: z.enum(WEIGHT_UNITS),
  lowStockThreshold: z.int().min(0).max(1_000_000_000).openapi({ description: 'Stock at or below this is low, unless a product or variant sets its own.' }),
  pricesIncludeTax: PricesIncludeTax,
  returnWindowDays: ReturnWindowDays,
  ...amounts,
  allowedOrigins: AllowedOrigins.openapi({ description: ALLOWED_ORIGINS_DESCRIPTION, example: ['https://shop.example', 'https://*.shop.example'] }),
  apiVersion: ApiVersion.openapi({ description: API_VERSION_DESCRIPTION }),
};

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateSettingsBody = createUpdateSchema(storeSettings, fields).omit({ id: true, updatedAt: true }).partial().strict().openapi('UpdateStoreSettings');
export type UpdateSettingsInput = z.infer<typeof UpdateSettingsBody>;
