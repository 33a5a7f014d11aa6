// The public face of the banners module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { BANNER_STATUSES } from './banner-status';
export { bannerListQuery } from './banners.query';
export { bannerRoutes } from './banners.routes';
export * as bannersService from './banners.service';
