// The public face of the products module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { IMMUTABLE, deleteUnusedObjects, ensureStored, releaseFiles, sha256Hex, storeObject } from './product-media.objects';
export { productVisibility, productWriter } from './products.access';
export { currencyTableOf, currencyTableRead, moneyView } from './products.currency';
export { productListQuery } from './products.query';
export * as productsRead from './products.read';
export { getProduct, listProducts, toVariant, writable } from './products.read';
export type { Visibility } from './products.read';
export * as productsRoutes from './products.routes';
export * as productsService from './products.service';
export { UNIQUE_FIELDS, categoryLinkInserts, createProduct, newVariantRow, productCreation, resolveRefs, variantInserts } from './products.service';
export * as variantsService from './variants.service';
