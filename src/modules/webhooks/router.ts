import { crudRouter } from '../../lib/crud-router';
import * as deliveries from './deliveries.handlers';
import * as deliveryRoutes from './deliveries.routes';
import * as replays from './replays.handlers';
import * as replayRoutes from './replays.routes';
import { rotateWebhookSecret, webhookHandlers } from './webhooks.handlers';
import { rotateWebhookSecret as rotateSecretRoute, webhookRoutes } from './webhooks.routes';

export const webhooksRouter = crudRouter(webhookRoutes, webhookHandlers)
  .openapi(rotateSecretRoute, rotateWebhookSecret)
  .openapi(deliveryRoutes.listDeliveries, deliveries.listDeliveries)
  .openapi(deliveryRoutes.getDelivery, deliveries.getDelivery)
  .openapi(deliveryRoutes.redeliver, deliveries.redeliver)
  .openapi(deliveryRoutes.testWebhook, deliveries.testWebhook)
  .openapi(replayRoutes.replayWebhook, replays.replayWebhook)
  .openapi(replayRoutes.listReplays, replays.listReplays)
  .openapi(replayRoutes.getReplay, replays.getReplay);
