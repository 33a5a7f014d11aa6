import { defineModule } from '../../lib/define-module';

/** Every movement of money after the order: settling payments and refunds, store credit, gift-card issue and spend, the order moves they make. No routes. */
export default defineModule({
  name: 'ledger',
  routers: [],
  tables: {
    notAudited: {
      store_credit_entries: 'a ledger itself: every change of a store credit balance, with who made it',
      store_credit_balances: 'the sums of store_credit_entries, kept by a trigger',
    },
  },
  events: ['store_credit.changed'],
  eventKinds: async () => (await import('./ledger.events')).EVENT_KINDS,
});
