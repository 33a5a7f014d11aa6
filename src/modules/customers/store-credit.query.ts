import { storeCreditEntries } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, exactFilter, fieldTreeFromSchema } from '../../lib/query';
import { StoreCreditEntrySchema } from './store-credit.schemas';

export const storeCreditListQuery = defineListQuery({
  resource: 'store credit entry',
  id: storeCreditEntries.id,
  sortable: { createdAt: storeCreditEntries.createdAt, id: storeCreditEntries.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(StoreCreditEntrySchema),
  filters: {
    currency: exactFilter(storeCreditEntries.currency, 'Entries in this currency (ISO code, upper case).'),
    reason: exactFilter(storeCreditEntries.reason, 'Entries with this reason (`refund`, `spent`, `adjustment`, ...).'),
    order: exactFilter(storeCreditEntries.orderId, 'Entries of this order (id).'),
    created_after: createdAfterFilter(storeCreditEntries.createdAt),
    created_before: createdBeforeFilter(storeCreditEntries.createdAt),
  },
});
