import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'customers',
  routers: [{ at: '/api', keys: ['api/customers'], load: async () => (await import('./router')).customersRouter }],
  permissions: ['customers', 'store-credit'],
  tables: { audited: { addresses: 'address' } },
  events: ['customer.registered'],
  eventKinds: async () => (await import('./customers.events')).EVENT_KINDS,
});
