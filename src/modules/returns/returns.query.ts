import { RETURN_STATUSES, returns } from '../../db/schema';
import { createdAfterFilter, defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema } from '../../lib/query';
import { ReturnSchema } from './returns.schemas';

/** Every return the caller reaches (`/returns`), newest first: the queue staff work through. */
export const returnListQuery = defineListQuery({
  resource: 'return',
  id: returns.id,
  sortable: { createdAt: returns.createdAt, updatedAt: returns.updatedAt, id: returns.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(ReturnSchema),
  filters: {
    status: enumFilter(returns.status, RETURN_STATUSES, 'Return status (`requested` for what waits on staff).'),
    order: exactFilter(returns.orderId, 'The order returned from (`ord_...`).'),
    customer: exactFilter(returns.customerId, "The order's customer (`user_...`)."),
    created_after: createdAfterFilter(returns.createdAt),
  },
});
