import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'price-lists',
  routers: [{ at: '/api', keys: ['api/price-lists'], load: async () => (await import('./router')).priceListsRouter }],
  permissions: ['price-lists'],
  tables: {
    audited: { price_lists: 'price_list', price_list_prices: 'price_list_price' },
  },
});
