import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'brands',
  routers: [{ at: '/api', keys: ['api/brands'], load: async () => (await import('./router')).brandsRouter }],
  permissions: ['brands'],
  tables: {
    audited: { brands: 'brand' },
  },
});
