// The shapes of the customers module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { AddressSchema, CreateAddressBody, UpdateAddressBody } from './addresses.schemas';
export type { Address } from './addresses.schemas';
export { CreateCustomerBody, CustomerSchema, UpdateCustomerBody, customerProfileFields } from './customers.schemas';
export type { Customer } from './customers.schemas';
export { AdjustStoreCreditBody } from './store-credit.schemas';
export type { StoreCreditEntry } from './store-credit.schemas';
