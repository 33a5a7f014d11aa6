import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'webhooks',
  routers: [{ at: '/api', keys: ['api/webhooks'], load: async () => (await import('./router')).webhooksRouter }],
  permissions: ['webhooks'],
  tables: {
    audited: { webhook_endpoints: 'webhook' },
    notAudited: {
      webhook_deliveries: 'delivery bookkeeping written by the queue consumers',
      webhook_attempts: 'delivery bookkeeping written by the queue consumers',
      webhook_replays: 'a replay of past events to an endpoint and its progress, written by the replay queue; the endpoint itself is audited',
    },
  },
});
