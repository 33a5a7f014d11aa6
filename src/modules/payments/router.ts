import { createRouter } from '../../lib/router';
import * as handlers from './payments.handlers';
import * as routes from './payments.routes';

export const paymentsRouter = createRouter()
  .openapi(routes.createPayment, handlers.createPayment)
  .openapi(routes.listOrderPayments, handlers.listOrderPayments)
  .openapi(routes.listPayments, handlers.listPayments)
  .openapi(routes.getPayment, handlers.getPayment)
  .openapi(routes.createRefund, handlers.createRefund)
  .openapi(routes.listRefunds, handlers.listRefunds)
  .openapi(routes.stripeWebhook, handlers.stripeWebhook);
