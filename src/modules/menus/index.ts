// The public face of the menus module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { menuListQuery } from './menus.query';
export { menuRoutes } from './menus.routes';
export * as menusService from './menus.service';
