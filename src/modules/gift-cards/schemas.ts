// The shapes of the gift-cards module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreateGiftCardBody, GiftCardCode } from './gift-cards.schemas';
export type { GiftCard } from './gift-cards.schemas';
