// The public face of the carts module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { abandonIdleCarts, recoveredRevenue } from './abandonment';
export { adoptGuestCartByToken } from './adopt';
export { isCartStaff, refuseCartListOutsiders } from './carts.access';
export { cartListQuery } from './carts.query';
export * as cartsRoutes from './carts.routes';
export * as cartsService from './carts.service';
export { RECOVERY_DAYS, recoveryToken, recoveryUrl } from './recovery';
