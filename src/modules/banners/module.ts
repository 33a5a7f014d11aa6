import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'banners',
  routers: [{ at: '/api', keys: ['api/banners'], load: async () => (await import('./router')).bannersRouter }],
  tables: {
    audited: { banners: 'banner' },
  },
});
