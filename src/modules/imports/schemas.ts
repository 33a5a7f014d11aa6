// The shapes of the imports module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { importEnded, importListQuery, importMaxBytes } from './imports.schemas';
export type { ImportItem, ImportSummary, ImportView } from './imports.schemas';
