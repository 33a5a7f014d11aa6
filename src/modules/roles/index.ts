// The public face of the roles module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { roleListQuery } from './roles.query';
export { roleRoutes } from './roles.routes';
export * as rolesService from './roles.service';
export { getRole, listRoles } from './roles.service';
