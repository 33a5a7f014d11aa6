// The shapes of the banners module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreateBannerBody, UpdateBannerBody } from './banners.schemas';
export type { Banner } from './banners.schemas';
