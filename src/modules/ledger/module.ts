import { defineModule } from '../../lib/define-module';

/** Every movement of money after the order: settling payments and refunds, gift-card issue and spend, the order moves they make. No routes. */
export default defineModule({
  name: 'ledger',
  routers: [],
});
