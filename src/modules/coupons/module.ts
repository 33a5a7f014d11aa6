import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'coupons',
  routers: [{ at: '/api', keys: ['api/coupons'], load: async () => (await import('./router')).couponsRouter }],
  permissions: ['coupons'],
  tables: {
    notAudited: {
      coupons: 'emptied by migration 0070: coupons are promotions rows; dropped in a later release',
      coupon_usages: 'emptied by migration 0070: coupons are promotions rows; dropped in a later release',
    },
  },
});
