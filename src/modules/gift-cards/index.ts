// The public face of the gift-cards module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { appliedCardsOf, giftCardsView } from './applied-gift-cards';
export { assertUsable, cardByCode, unusableBecause } from './code-attempts';
export { giftCardListQuery } from './gift-cards.query';
export { giftCardRoutes } from './gift-cards.routes';
export * as giftCardsService from './gift-cards.service';
