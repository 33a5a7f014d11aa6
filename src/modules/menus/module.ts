import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'menus',
  routers: [{ at: '/api', keys: ['api/menus'], load: async () => (await import('./router')).menusRouter }],
  tables: {
    audited: { menus: 'menu' },
  },
});
