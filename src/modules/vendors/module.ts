import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'vendors',
  routers: [{ at: '/api', keys: ['api/vendors'], load: async () => (await import('./router')).vendorsRouter }],
  permissions: ['vendors'],
  tables: {
    audited: { vendors: 'vendor' },
  },
});
