// The public face of the shipping module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { shippingMethodRoutes } from './methods.routes';
export * as methodsService from './methods.service';
export { methodsByZone } from './methods.service';
export { shippingZoneListQuery } from './zones.query';
export { shippingZoneRoutes } from './zones.routes';
export * as zonesService from './zones.service';
export { listShippingZones } from './zones.service';
