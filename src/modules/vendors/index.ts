// The public face of the vendors module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { vendorListQuery } from './vendors.query';
export { vendorRoutes } from './vendors.routes';
export * as vendorsService from './vendors.service';
export { listVendors } from './vendors.service';
