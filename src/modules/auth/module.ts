import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'auth',
  routers: [{ at: '/api', keys: ['api/auth'], load: async () => (await import('./router')).authRouter }],
  tables: {
    notAudited: {
      password_reset_tokens: 'credential bookkeeping (token hashes)',
      login_failures: 'sign-in bookkeeping (lock-outs)',
      admin_sessions: 'sign-in bookkeeping of the admin panel (token hashes)',
    },
  },
});
