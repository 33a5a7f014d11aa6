// The public face of the shipments module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { shipmentReach } from './shipments.access';
export { allShipmentsListQuery, shipmentListQuery } from './shipments.query';
export * as shipmentsRoutes from './shipments.routes';
export * as shipmentsService from './shipments.service';
