// The shapes of the inventory module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreateAdjustmentBody, MANUAL_REASONS } from './inventory.schemas';
export type { Adjustment, InventoryItem } from './inventory.schemas';
