import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'notifications',
  routers: [{ at: '/api', keys: ['api/notifications'], load: async () => (await import('./router')).notificationsRouter }],
  permissions: ['notifications'],
  tables: {
    audited: { notification_templates: 'notification_template' },
    notAudited: {
      notifications: 'a log of messages sent, written by the notification pipeline',
    },
  },
});
