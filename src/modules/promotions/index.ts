// The public face of the promotions module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { PROMOTION_UNIQUE_FIELDS, updatePromotionRow } from './promotion-update';
export { promotionListQuery } from './promotions.query';
export { promotionRoutes } from './promotions.routes';
export * as promotionsService from './promotions.service';
