import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'orders',
  routers: [{ at: '/api', keys: ['api/orders'], load: async () => (await import('./router')).ordersRouter }],
  permissions: ['orders'],
  tables: {
    audited: { orders: 'order', order_lines: 'order_line' },
    notAudited: {
      order_status_history: "a history itself; the order's status change is audited on the order",
    },
  },
  events: ['order.placed', 'order.updated', 'order.cancelled'],
  eventKinds: async () => (await import('./orders.events')).EVENT_KINDS,
});
