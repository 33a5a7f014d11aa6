// The public face of the webhooks module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { deliveryListQuery } from './deliveries.query';
export * as deliveriesRoutes from './deliveries.routes';
export * as deliveriesService from './deliveries.service';
export { replayWebhook } from './replays.routes';
export * as replaysService from './replays.service';
export { allowPrivateUrls } from './webhooks.handlers';
export { webhookListQuery } from './webhooks.query';
export { rotateWebhookSecret, webhookRoutes } from './webhooks.routes';
export * as webhooksService from './webhooks.service';
export { listEndpoints } from './webhooks.service';
