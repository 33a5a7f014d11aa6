import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'reports',
  routers: [{ at: '/api', keys: ['api/reports'], load: async () => (await import('./router')).reportsRouter }],
  permissions: ['reports'],
  tables: {
    notAudited: {
      sales_days: 'sales by day, derived from orders and refunds by triggers',
      product_sales_days: 'product sales by day, derived from order lines by triggers',
      product_sales_months: 'product sales by month, derived from order lines by triggers',
    },
  },
});
