// The shapes of the orders module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export {
  CancelOrderBody,
  CreateOrderBody,
  OrderDetailSchema,
  OrderParams,
  OrderSchema,
  OrderShippingMethodSchema,
  PostalAddress,
  TaxBreakdownSchema,
  UpdateOrderBody,
} from './orders.schemas';
export type { Order, OrderDetail } from './orders.schemas';
