// The public face of the pages module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { pageListQuery } from './pages.query';
export { pageRoutes } from './pages.routes';
export * as pagesService from './pages.service';
export { bumpForScheduledContent } from './scheduled-content';
