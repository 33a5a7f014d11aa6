import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'returns',
  routers: [{ at: '/api', keys: ['api/orders', 'api/returns'], load: async () => (await import('./router')).returnsRouter }],
  permissions: ['returns'],
  tables: {
    audited: { returns: 'return', return_lines: 'return_line' },
  },
  events: ['return.requested', 'return.approved', 'return.rejected', 'return.received'],
  eventKinds: async () => (await import('./returns.events')).EVENT_KINDS,
});
