// The shapes of the customer-groups module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { AddMembersBody, CreateCustomerGroupBody, UpdateCustomerGroupBody } from './customer-groups.schemas';
export type { CustomerGroup } from './customer-groups.schemas';
