// The public face of the returns module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { exchangeReturn } from './exchanges';
export { returnReach } from './returns.access';
export { returnListQuery } from './returns.query';
export * as returnsRoutes from './returns.routes';
export * as returnsService from './returns.service';
export { listReturns } from './returns.service';
