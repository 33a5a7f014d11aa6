// The public face of the customer-groups module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { customerGroupListQuery } from './customer-groups.query';
export * as customerGroupsRoutes from './customer-groups.routes';
export * as customerGroupsService from './customer-groups.service';
export { listCustomerGroups } from './customer-groups.service';
