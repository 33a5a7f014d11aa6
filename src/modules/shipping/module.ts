import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'shipping',
  routers: [{ at: '/api', keys: ['api/settings'], load: async () => (await import('./router')).shippingRouter }],
  tables: {
    audited: { shipping_zones: 'shipping_zone', shipping_methods: 'shipping_method' },
  },
});
