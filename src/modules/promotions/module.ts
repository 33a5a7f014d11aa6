import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'promotions',
  routers: [{ at: '/api', keys: ['api/promotions'], load: async () => (await import('./router')).promotionsRouter }],
  permissions: ['promotions'],
  tables: {
    audited: { promotions: 'promotion' },
    notAudited: {
      promotion_usages: "bookkeeping of placed orders; the promotion's timesUsed change is audited",
    },
  },
});
