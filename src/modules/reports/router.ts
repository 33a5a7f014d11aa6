import { createRouter } from '../../lib/router';
import * as handlers from './reports.handlers';
import * as routes from './reports.routes';

export const reportsRouter = createRouter()
  .openapi(routes.salesReport, handlers.salesReport)
  .openapi(routes.customerReport, handlers.customerReport)
  .openapi(routes.productReport, handlers.productReport)
  .openapi(routes.promotionReport, handlers.promotionReport);
