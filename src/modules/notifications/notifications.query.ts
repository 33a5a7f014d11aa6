import { NOTIFICATION_STATUSES, notifications } from '../../db/schema';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_CHANNELS, notificationTemplates, TEMPLATE_AUDIENCES } from '../../db/schema/notifications';
import { booleanFilter, createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema } from '../../lib/query';
import { NotificationSchema, NotificationTemplateSchema } from './notifications.schemas';

export const notificationListQuery = defineListQuery({
  resource: 'notification',
  id: notifications.id,
  sortable: { createdAt: notifications.createdAt, updatedAt: notifications.updatedAt, id: notifications.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(NotificationSchema),
  filters: {
    status: enumFilter(notifications.status, NOTIFICATION_STATUSES, 'Delivery state (`failed` lists what could not be sent).'),
    channel: enumFilter(notifications.channel, NOTIFICATION_CHANNELS, 'Channel.'),
    category: enumFilter(notifications.category, NOTIFICATION_CATEGORIES, 'Transactional or marketing.'),
    template: exactFilter(notifications.template, 'Template key, like `order_confirmation`.'),
    recipient: exactFilter(notifications.recipient, 'The exact address or phone number it went to.'),
    event_id: exactFilter(notifications.eventId, 'The outbox event that caused it.'),
    created_after: createdAfterFilter(notifications.createdAt),
    created_before: createdBeforeFilter(notifications.createdAt),
  },
});

export const templateListQuery = defineListQuery({
  resource: 'notification template',
  id: notificationTemplates.id,
  sortable: { key: notificationTemplates.key, event: notificationTemplates.event, updatedAt: notificationTemplates.updatedAt, id: notificationTemplates.id },
  defaultSort: [{ field: 'key', direction: 'asc' }],
  selectable: fieldTreeFromSchema(NotificationTemplateSchema),
  filters: {
    channel: enumFilter(notificationTemplates.channel, NOTIFICATION_CHANNELS, 'Channel.'),
    audience: enumFilter(notificationTemplates.audience, TEMPLATE_AUDIENCES, 'Who it speaks to.'),
    event: exactFilter(notificationTemplates.event, 'The triggering event (`order.placed`, `password_reset`, ...).'),
    active: booleanFilter(notificationTemplates.active, 'Switched on or off.'),
  },
});
