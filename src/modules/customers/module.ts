import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'customers',
  routers: [{ at: '/api', keys: ['api/customers'], load: async () => (await import('./router')).customersRouter }],
  permissions: ['customers', 'store-credit'],
  tables: {
    audited: { addresses: 'address' },
    notAudited: {
      store_credit_entries: 'a ledger itself: every change of a store credit balance, with who made it',
      store_credit_balances: 'the sums of store_credit_entries, kept by a trigger',
    },
  },
  events: ['customer.registered', 'store_credit.changed'],
  eventKinds: async () => (await import('./customers.events')).EVENT_KINDS,
});
