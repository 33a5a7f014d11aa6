import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'inventory',
  routers: [{ at: '/api', keys: ['api/inventory'], load: async () => (await import('./router')).inventoryRouter }],
  permissions: ['inventory'],
  tables: {
    notAudited: {
      inventory_adjustments: 'a stock history itself; the stock change is audited on the variant',
    },
  },
  events: ['inventory.low'],
  eventKinds: async () => (await import('./inventory.events')).EVENT_KINDS,
});
