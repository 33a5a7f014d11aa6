import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'users',
  routers: [{ at: '/api', keys: ['api/users'], load: async () => (await import('./router')).usersRouter }],
  permissions: ['users'],
  tables: {
    audited: { users: 'user' },
  },
});
