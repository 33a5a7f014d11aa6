// The public face of the customers module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { addressRoutes } from './addresses.routes';
export * as addressesService from './addresses.service';
export { toAddress } from './addresses.service';
export { customerTarget } from './customers.access';
export type { CustomerAction } from './customers.access';
export { customerListQuery } from './customers.query';
export * as customersRoutes from './customers.routes';
export * as customersService from './customers.service';
export { CUSTOMER_ROLE, getCustomer, isCustomer, listCustomers } from './customers.service';
export { assertCurrentPassword } from './email-change';
export { storeCreditListQuery } from './store-credit.query';
export * as storeCreditRoutes from './store-credit.routes';
export * as storeCreditService from './store-credit.service';
