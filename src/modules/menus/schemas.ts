// The shapes of the menus module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreateMenuBody, UpdateMenuBody } from './menus.schemas';
export type { Menu, MenuItem } from './menus.schemas';
