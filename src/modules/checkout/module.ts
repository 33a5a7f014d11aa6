import { defineModule } from '../../lib/define-module';

/** Pricing: the quote and its inputs, tax, the shipping charge, price lists and promotions. No routes: carts and orders price through it. */
export default defineModule({
  name: 'checkout',
  routers: [],
  tables: { notAudited: { quote_version: 'a version number bumped by triggers' } },
});
