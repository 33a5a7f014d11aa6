// The shapes of the pages module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreatePageBody, UpdatePageBody } from './pages.schemas';
export type { Page } from './pages.schemas';
