// The shapes of the price-lists module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreatePriceListBody, UpdatePriceListBody } from './price-lists.schemas';
export type { PriceList } from './price-lists.schemas';
