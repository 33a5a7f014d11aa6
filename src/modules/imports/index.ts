// The public face of the imports module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { applyPlan } from './apply';
export type { Outcome } from './apply';
export { STORE_COLUMN_NAMES } from './formats';
export * as importsRoutes from './imports.routes';
export * as importsService from './imports.service';
export type { ImportMessage } from './imports.service';
export type { Failure, ProductPlan } from './plan';
export { TOO_MANY_VALUES } from './writable';
