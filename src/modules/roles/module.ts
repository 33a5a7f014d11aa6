import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'roles',
  routers: [{ at: '/api', keys: ['api/roles'], load: async () => (await import('./router')).rolesRouter }],
  permissions: ['roles'],
  tables: {
    audited: { roles: 'role' },
  },
});
