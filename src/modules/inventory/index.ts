// The public face of the inventory module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { inventoryReach } from './inventory.access';
export { adjustmentListQuery, inventoryListQuery } from './inventory.query';
export * as inventoryRoutes from './inventory.routes';
export * as inventoryService from './inventory.service';
export { listInventory } from './inventory.service';
export { stockChangeStatements } from './stock';
