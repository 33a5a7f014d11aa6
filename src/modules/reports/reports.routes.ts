import { access } from '../../lib/route-access';
import { apiRoute, errorResponses, operation, successResponse } from '../../lib/openapi';
import {
  CustomerReportSchema,
  PeriodReportQuery,
  ProductReportQuery,
  ProductReportSchema,
  PromotionReportQuery,
  PromotionReportSchema,
  SalesReportSchema,
} from './reports.schemas';

const tags = ['Reports'];
const source =
  'Read from daily totals the store keeps as orders and refunds are written, so a year costs a few hundred rows, not every order. Days are UTC. ' +
  'An order counts on the day it was placed, in its own currency, until it is cancelled; a refund on the day it completed.';

export const salesReport = apiRoute({
  ...operation('reports', 'sales', 'getSalesReport'),
  method: 'get',
  path: '/reports/sales',
  tags,
  summary: 'Sales over time',
  description: `Orders, units, gross, discounts, shipping, tax, refunds, net, sales and average order value per day, week or month, and for the whole range. ${source}`,
  policy: { access: access.permission('reports:read') },
  request: { query: PeriodReportQuery },
  responses: { 200: successResponse(SalesReportSchema, 'The sales report.'), ...errorResponses(400, 401, 403) },
});

export const customerReport = apiRoute({
  ...operation('reports', 'customers', 'getCustomerReport'),
  method: 'get',
  path: '/reports/customers',
  tags,
  summary: 'New and returning customers',
  description: `Per period: customers who placed their first order, orders from customers who had ordered before, and the sales of each. ${source}`,
  policy: { access: access.permission('reports:read') },
  request: { query: PeriodReportQuery },
  responses: { 200: successResponse(CustomerReportSchema, 'The customer report.'), ...errorResponses(400, 401, 403) },
});

export const productReport = apiRoute({
  ...operation('reports', 'products', 'getProductReport'),
  method: 'get',
  path: '/reports/products',
  tags,
  summary: 'Best-selling products',
  description: `The products sold most in the range, by revenue or units; a product none of whose units are left (every one refunded) is not listed. ${source}`,
  policy: { access: access.permission('reports:read') },
  request: { query: ProductReportQuery },
  responses: { 200: successResponse(ProductReportSchema, 'The best sellers.'), ...errorResponses(400, 401, 403) },
});

export const promotionReport = apiRoute({
  ...operation('reports', 'promotions', 'getPromotionReport'),
  method: 'get',
  path: '/reports/promotions',
  tags,
  summary: 'Discounts by promotion',
  description:
    'Per promotion, and per coupon (named by its code), applied to orders in the range: the orders that applied it, all it took off them (lines and shipping), the part off shipping, and the order totals of those orders. ' +
    'Read from what each order kept of the promotions it applied when it was placed (renaming or deleting a promotion later changes nothing), summed over the orders of the range in one query. Days are UTC. ' +
    'An order counts on the day it was placed, in its own currency (orders in others are left out, never converted), until it is cancelled; refunds do not change the figures.',
  policy: { access: access.permission('reports:read') },
  request: { query: PromotionReportQuery },
  responses: { 200: successResponse(PromotionReportSchema, 'The promotions, most discount first.'), ...errorResponses(400, 401, 403) },
});
