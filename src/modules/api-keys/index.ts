// The public face of the api-keys module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { apiKeyListQuery } from './api-keys.query';
export { apiKeyRoutes } from './api-keys.routes';
export * as apiKeysService from './api-keys.service';
