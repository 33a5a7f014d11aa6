// The public face of the orders module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { runCancellation } from './order-changes';
export { ALL_ORDERS, cancelReach, orderCondition, readReach } from './orders.access';
export type { OrderReach } from './orders.access';
export { orderNumberField } from './orders.events';
export { orderListQuery } from './orders.query';
export { findOrder, getOrder, toOrder } from './orders.read';
export * as ordersRoutes from './orders.routes';
export * as ordersService from './orders.service';
export { listOrders } from './orders.service';
export { orderNumberStart, placeOrder } from './place-order';
export type { PlacedOrder } from './place-order';
