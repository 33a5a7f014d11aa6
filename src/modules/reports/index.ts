// The public face of the reports module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export * as reportsRoutes from './reports.routes';
export * as reportsService from './reports.service';
export { salesReport } from './reports.service';
