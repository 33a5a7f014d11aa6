// The public face of the brands module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { brandListQuery } from './brands.query';
export { brandRoutes } from './brands.routes';
export * as brandsService from './brands.service';
export { listBrands } from './brands.service';
