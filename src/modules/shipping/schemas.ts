// The shapes of the shipping module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreateShippingMethodBody, UpdateShippingMethodBody } from './methods.schemas';
export type { ShippingMethod } from './methods.schemas';
export { CreateShippingZoneBody, UpdateShippingZoneBody } from './zones.schemas';
export type { ShippingZone } from './zones.schemas';
