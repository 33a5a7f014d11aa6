// The shapes of the products module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { MAX_MEDIA_PER_PRODUCT, MediaSchema } from './product-media.schemas';
export type { Media } from './product-media.schemas';
export { CreateProductBody, CreateVariantBody, MAX_VARIANTS_PER_PRODUCT, UpdateProductBody, UpdateVariantBody } from './products.schemas';
export type { CreateProductInput, CreateVariantInput, Product, Variant } from './products.schemas';
