// The shapes of the webhooks module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export type { Delivery } from './deliveries.schemas';
export { CreateReplayBody } from './replays.schemas';
export type { Replay } from './replays.schemas';
export { CreateWebhookBody, RotateSecretBody, UpdateWebhookBody } from './webhooks.schemas';
export type { WebhookEndpoint } from './webhooks.schemas';
