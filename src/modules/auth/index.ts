// The public face of the auth module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export * as authRoutes from './auth.routes';
export * as authService from './auth.service';
export { bootstrap, login } from './auth.service';
