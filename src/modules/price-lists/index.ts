// The public face of the price-lists module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { priceListListQuery } from './price-lists.query';
export { priceListRoutes } from './price-lists.routes';
export * as priceListsService from './price-lists.service';
