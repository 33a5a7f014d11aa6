import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'shipments',
  routers: [{ at: '/api', keys: ['api/orders', 'api/shipments'], load: async () => (await import('./router')).shipmentsRouter }],
  permissions: ['shipments'],
  tables: {
    audited: { shipments: 'shipment', shipment_lines: 'shipment_line' },
  },
  events: ['shipment.shipped'],
  eventKinds: async () => (await import('./shipments.events')).EVENT_KINDS,
});
