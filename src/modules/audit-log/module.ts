import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'audit-log',
  routers: [{ at: '/api', keys: ['api/audit-log'], load: async () => (await import('./router')).auditLogRouter }],
  permissions: ['audit-log'],
  tables: {
    notAudited: {
      audit_log: 'the log itself (append-only)',
      audit_context: 'who is writing, for the triggers; lives only inside a transaction',
    },
  },
});
