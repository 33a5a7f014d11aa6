import { ORDER_STATUSES, orders } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, exactFilter, integerFilter, fieldTreeFromSchema } from '../../lib/query';
import { OrderDetailSchema, OrderSchema } from './orders.schemas';

/** What an order list lets a client ask for: the one place its sort, fields and filters are declared. */
export const orderListQuery = defineListQuery({
  resource: 'order',
  id: orders.id,
  // `total` compares amounts in each order's own currency, as stored.
  sortable: { createdAt: orders.createdAt, number: orders.number, total: orders.total, status: orders.status },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(OrderSchema),
  filters: {
    status: enumFilter(orders.status, ORDER_STATUSES, 'Order status.'),
    created_after: createdAfterFilter(orders.createdAt),
    created_before: createdBeforeFilter(orders.createdAt),
    customer: exactFilter(orders.customerId, "The customer's id."),
    number: integerFilter(orders.number, 'The order number (`1001` for #1001).', 1001),
  },
});

/** A single read can also select `history`. */
export const orderDetailFields = fieldTreeFromSchema(OrderDetailSchema);
