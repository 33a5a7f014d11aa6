import { WEBHOOK_DELIVERY_STATUSES, webhookDeliveries } from '../../db/schema';
import { PING_EVENT } from '../../lib/events';
import { EVENT_TYPES } from '../registry';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, fieldTreeFromSchema } from '../../lib/query';
import { DeliverySchema } from './deliveries.schemas';

export const deliveryListQuery = defineListQuery({
  resource: 'webhook delivery',
  id: webhookDeliveries.id,
  sortable: { createdAt: webhookDeliveries.createdAt, lastAttemptAt: webhookDeliveries.lastAttemptAt, id: webhookDeliveries.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(DeliverySchema),
  filters: {
    status: enumFilter(webhookDeliveries.status, WEBHOOK_DELIVERY_STATUSES, 'Delivery status.'),
    event: enumFilter(webhookDeliveries.eventType, [...EVENT_TYPES, PING_EVENT], 'Event kind.'),
    created_after: createdAfterFilter(webhookDeliveries.createdAt),
    created_before: createdBeforeFilter(webhookDeliveries.createdAt),
  },
});
