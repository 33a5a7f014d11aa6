import { createRouter } from '../../lib/router';
import * as deliveries from './deliveries.handlers';
import * as deliveryRoutes from './deliveries.routes';
import * as handlers from './webhooks.handlers';
import * as routes from './webhooks.routes';

export const webhooksRouter = createRouter()
  .openapi(routes.listWebhooks, handlers.listWebhooks)
  .openapi(routes.createWebhook, handlers.createWebhook)
  .openapi(routes.getWebhook, handlers.getWebhook)
  .openapi(routes.updateWebhook, handlers.updateWebhook)
  .openapi(routes.deleteWebhook, handlers.deleteWebhook)
  .openapi(routes.rotateWebhookSecret, handlers.rotateWebhookSecret)
  .openapi(deliveryRoutes.listDeliveries, deliveries.listDeliveries)
  .openapi(deliveryRoutes.getDelivery, deliveries.getDelivery)
  .openapi(deliveryRoutes.redeliver, deliveries.redeliver)
  .openapi(deliveryRoutes.testWebhook, deliveries.testWebhook);
