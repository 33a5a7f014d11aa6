// The public face of the coupons module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { COUPON_STATUSES } from './coupon-status';
export { couponListQuery } from './coupons.query';
export { couponRoutes } from './coupons.routes';
export * as couponsService from './coupons.service';
