import { z } from '@hono/zod-openapi';
import { PRODUCT_STATUSES, products, productVariants } from '../../db/schema';
import { CurrencyPricesInput, CurrencyPricesOutput } from '../checkout';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Money, Ref, Slug, Timestamp } from '../../lib/schemas';
import { MediaSchema } from './product-media.schemas';

/** Shapes of products and variants on the wire, derived from the Drizzle tables with API overrides. */

const ImageSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  alt: z.string().max(300).nullable().optional(),
});
const Images = z.array(ImageSchema).max(50);
const Attributes = z
  .record(z.string().min(1).max(100), z.union([z.string().max(1000), z.number(), z.boolean()]))
  .refine((r) => Object.keys(r).length <= 100, 'at most 100 attributes')
  .openapi({ example: { material: 'cotton', organic: true } });
const Options = z
  .record(z.string().min(1).max(100), z.string().min(1).max(200))
  .refine((r) => Object.keys(r).length <= 10, 'at most 10 options')
  .openapi({ example: { size: 'M', color: 'Blue' } });
const Sku = z.string().trim().min(1).max(100).openapi({ example: 'TSHIRT-BLUE-M' });
const Quantity = z.int().min(0).max(1_000_000_000);
const Threshold = z.int().min(0).max(1_000_000_000);

const moneyColumns = { price: Money, compareAtPrice: Money.nullable() };
/** On reads: in the currency the read asked for (`?currency=`), the default currency without it. */
const GiftCardFlag = z.boolean().openapi({
  description:
    "A gift-card product: once an order of it is paid in full, each unit issues one gift card worth the line's unit price in the order's currency, " +
    "with the order's email as recipient (docs/gift-cards.md). `false` when omitted.",
});

const shownMoney = {
  price: Money.openapi({
    description:
      "In the product's `currency`: the own price there (`prices`) when set, else converted by exchange rate; the default currency's price without `?currency`. " +
      "A signed-in customer sees the price of its price lists for one unit when lower (a product's own price: its lowest variant's; docs/price-lists.md).",
  }),
  compareAtPrice: Money.nullable().openapi({
    description: 'The compare-at ("was") price, in the same currency as `price` and taken the same way; for a signed-in customer shown a price-list price, the public price.',
  }),
};

const TaxClass = z.string().min(1).max(50).openapi({ description: 'Code of a tax class (`GET /api/settings/tax-classes`); `standard` when not given.', example: 'standard' });

/** In the store's `weightUnit` (settings), for shipping rates by weight. */
const Weight = z
  .number()
  .min(0)
  .max(1_000_000)
  .openapi({ description: "In the store's `weightUnit` (`GET /api/settings`), for shipping rates by weight; null weighs 0.", example: 0.5 });

export const VariantSchema = createSelectSchema(productVariants, {
  ...shownMoney,
  prices: CurrencyPricesOutput,
  weight: Weight.nullable(),
  options: Options,
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({ productId: true })
  .openapi('Variant');

export const ProductSchema = createSelectSchema(products, {
  ...shownMoney,
  prices: CurrencyPricesOutput,
  taxClass: TaxClass.openapi({ description: 'Code of the tax class the product is taxed by (`GET /api/settings/tax-classes`).' }),
  images: z.array(z.object({ url: z.string(), alt: z.string().nullable().optional() })).openapi({
    description: 'Images hosted elsewhere, by URL, as given in `images` on writes. Images uploaded to the store are in `media`.',
  }),
  attributes: Attributes,
  giftCard: GiftCardFlag,
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  // `related` is what brand, vendor, categories and variants below are read from; `variantPrices` is for SQL alone.
  .omit({ brandId: true, vendorId: true, related: true, media: true, variantPrices: true })
  .extend({
    currency: z.string().openapi({
      description: "ISO 4217 code of the currency `price` and `compareAtPrice` (the product's and its variants') are in: `?currency=`, else the store's default.",
      example: 'EUR',
    }),
    media: z.array(MediaSchema).openapi({ description: 'Images uploaded to the store (`POST /api/products/{id}/media`), in display order.' }),
    brand: Ref.nullable(),
    vendor: Ref.nullable(),
    categories: z.array(Ref),
    stock: z.int().openapi({ description: 'Units in stock across all variants.' }),
    variants: z.array(VariantSchema),
  })
  .openapi('Product');

export type Product = z.infer<typeof ProductSchema>;
export type Variant = z.infer<typeof VariantSchema>;

const variantFields = {
  sku: Sku.nullable(),
  name: z.string().trim().min(1).max(200).nullable(),
  options: Options,
  ...moneyColumns,
  prices: CurrencyPricesInput,
  weight: Weight.nullable(),
  stock: Quantity,
  lowStockThreshold: Threshold.nullable(),
  position: z.int().min(0).max(10_000),
};

export const CreateVariantBody = createInsertSchema(productVariants, variantFields)
  .omit({ id: true, productId: true, createdAt: true, updatedAt: true })
  .partial()
  .strict()
  .openapi('CreateVariant', { description: 'A variant; `price` defaults to the product price.' });

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateVariantBody = createUpdateSchema(productVariants, variantFields)
  .omit({ id: true, productId: true, createdAt: true, updatedAt: true })
  .partial()
  .strict()
  .openapi('UpdateVariant');

const productFields = {
  name: z.string().trim().min(1).max(200),
  slug: Slug,
  description: z.string().max(20_000).nullable(),
  ...moneyColumns,
  prices: CurrencyPricesInput,
  taxClass: TaxClass,
  sku: Sku.nullable(),
  images: Images,
  attributes: Attributes,
  lowStockThreshold: Threshold.nullable(),
  brandId: z.string().min(1).max(100).nullable(),
  vendorId: z.string().min(1).max(100).nullable(),
  giftCard: GiftCardFlag,
};
/**
 * A product created without `status` is a draft: a half-entered product (no stock, no images yet)
 * must not go live by accident. The create answer's message says so, and how to publish.
 */
export const DEFAULT_PRODUCT_STATUS = 'draft' satisfies (typeof PRODUCT_STATUSES)[number];
export const DRAFT_CREATED_MESSAGE = 'Product created as a draft: set status to active to publish it';

/** Variants one product may have, on every path that writes them: creation, adding one, a product's rows in an import. */
export const MAX_VARIANTS_PER_PRODUCT = 100;

const categoryIds = z.array(z.string().min(1).max(100)).max(50).openapi({ description: 'Ids of the categories the product is in.' });

export const CreateProductBody = createInsertSchema(products, productFields)
  .omit({ id: true, related: true, media: true, variantPrices: true, createdAt: true, updatedAt: true })
  .partial()
  .required({ name: true, price: true })
  .extend({
    status: z.enum(PRODUCT_STATUSES).optional().openapi({
      description:
        '`draft` (the default when omitted: hidden from public lists and reads), `active` (for sale, shown publicly) or `archived`. Send `active` to publish on creation.',
    }),
    categoryIds: categoryIds.optional(),
    stock: Quantity.optional().openapi({ description: 'Stock of the default variant, when `variants` is not given; 0 when omitted.' }),
    weight: Weight.nullable().optional().openapi({ description: "Weight of the default variant, when `variants` is not given, in the store's `weightUnit`." }),
    variants: z.array(CreateVariantBody).min(1).max(MAX_VARIANTS_PER_PRODUCT).optional().openapi({
      description: 'The variants. Without it the product gets one default variant with its SKU, price and `stock`.',
    }),
  })
  .strict()
  .refine((p) => !(p.variants && p.stock !== undefined), { path: ['stock'], message: 'give stock per variant when variants are given' })
  .refine((p) => !(p.variants && p.weight !== undefined), { path: ['weight'], message: 'give weight per variant when variants are given' })
  .openapi('CreateProduct');

export const UpdateProductBody = createUpdateSchema(products, productFields)
  .omit({ id: true, related: true, media: true, variantPrices: true, createdAt: true, updatedAt: true })
  .partial()
  .extend({ categoryIds: categoryIds.optional() })
  .strict()
  .openapi('UpdateProduct', {
    description:
      'Fields to change. `categoryIds` replaces the set. On a product with one variant and no options, price, compare-at price and SKU changes also apply to that variant.',
  });

export type CreateProductInput = z.infer<typeof CreateProductBody>;
export type UpdateProductInput = z.infer<typeof UpdateProductBody>;
export type CreateVariantInput = z.infer<typeof CreateVariantBody>;
export type UpdateVariantInput = z.infer<typeof UpdateVariantBody>;
