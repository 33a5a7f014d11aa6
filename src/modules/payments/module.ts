import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'payments',
  routers: [{ at: '/api', keys: ['api/orders', 'api/payments'], load: async () => (await import('./router')).paymentsRouter }],
  permissions: ['payments'],
  tables: {
    audited: { payments: 'payment', refunds: 'refund' },
    notAudited: {
      refund_lines: "a refund's lines, written with the refund (which is audited)",
      provider_events: "a payment provider's webhook events, recorded once handled (their effects on payments and refunds are audited)",
    },
  },
  events: ['payment.completed', 'payment.failed', 'payment.refunded', 'refund.created', 'payment.disputed'],
  eventKinds: async () => (await import('./payments.events')).EVENT_KINDS,
});
