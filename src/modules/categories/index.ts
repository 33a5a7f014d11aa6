// The public face of the categories module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { categoryListQuery } from './categories.query';
export { categoryRoutes } from './categories.routes';
export * as categoriesService from './categories.service';
export { listCategories } from './categories.service';
