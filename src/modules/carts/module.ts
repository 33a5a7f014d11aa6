import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'carts',
  routers: [{ at: '/api', keys: ['api/carts'], load: async () => (await import('./router')).cartsRouter }],
  permissions: ['carts'],
  tables: {
    audited: { carts: 'cart', cart_lines: 'cart_line' },
    notAudited: {
      cart_recoveries: "bookkeeping of cart reminders' links, written by the cron and redeemed by the shopper (src/modules/carts/recovery.ts)",
    },
  },
  events: ['cart.abandoned'],
  eventKinds: async () => (await import('./carts.events')).EVENT_KINDS,
});
