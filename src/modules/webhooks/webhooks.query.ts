import { webhookEndpoints } from '../../db/schema';
import { booleanFilter, defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { WebhookEndpointSchema } from './webhooks.schemas';

export const webhookListQuery = defineListQuery({
  resource: 'webhook endpoint',
  id: webhookEndpoints.id,
  sortable: { createdAt: webhookEndpoints.createdAt, url: webhookEndpoints.url, id: webhookEndpoints.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(WebhookEndpointSchema),
  filters: {
    active: booleanFilter(webhookEndpoints.active, 'Receiving deliveries or not (an endpoint the store disabled is inactive).'),
    q: searchFilter([webhookEndpoints.url, webhookEndpoints.description], 'Search in the URL and description, case-insensitive.'),
  },
});
