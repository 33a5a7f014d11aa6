import { z } from '@hono/zod-openapi';
import { EventSchema } from '../events/schemas';
import { WEBHOOK_DELIVERY_STATUSES, webhookAttempts, webhookDeliveries } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

export const DELIVERY_STATUS_DESCRIPTION =
  '`pending` (queued, not answered yet), `retrying` (failed, another attempt is due at `nextRetryAt`), `succeeded` (a 2xx answer), `failed` (given up after about a day of retries).';

export const DeliverySchema = createSelectSchema(webhookDeliveries, {
  eventId: z.string().openapi({ description: 'The event, the same for every endpoint (`id` of the body).', example: 'evt_01JD0000000000000000000000' }),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).openapi({ description: DELIVERY_STATUS_DESCRIPTION }),
  attempts: z.int().openapi({ description: 'Attempts made so far.' }),
  lastStatusCode: z.int().nullable().openapi({ description: 'HTTP status of the last answer; null before the first or after a timeout or network error.' }),
  lastError: z.string().nullable(),
  lastAttemptAt: Timestamp.nullable(),
  nextRetryAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable().openapi({ description: 'When a 2xx answer came.' }),
  replayId: z.string().nullable().openapi({
    description: 'The replay that created or re-queued this delivery (sent as `X-Store-Replay`); null for a live delivery, and again after a redeliver.',
    example: 'whr_01JD0000000000000000000000',
  }),
  createdAt: Timestamp,
})
  .omit({ endpointId: true, eventType: true, updatedAt: true })
  .extend({ event: z.string().openapi({ description: 'The event kind (`X-Store-Event`).', example: 'order.placed' }) })
  .openapi('WebhookDelivery', { description: 'One event for one endpoint. Its `id` is `X-Store-Delivery` and `webhook-id`, the same on every retry.' });
export type Delivery = z.infer<typeof DeliverySchema>;

export const AttemptSchema = createSelectSchema(webhookAttempts, {
  attempt: z.int().openapi({ description: 'From 1.' }),
  startedAt: Timestamp,
  durationMs: z.int(),
  statusCode: z.int().nullable().openapi({ description: 'Null when no answer came (timeout, network error).' }),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable().openapi({ description: 'The start of the response body (1 KB).' }),
  nextRetryAt: Timestamp.nullable().openapi({ description: 'When the next attempt was scheduled; null after a success or the last attempt.' }),
})
  .omit({ id: true, deliveryId: true })
  .openapi('WebhookAttempt');

// The event as `GET /api/events` shows it, of any kind (a test delivery's is `ping`).
export const DeliveryPayloadSchema = EventSchema.extend({ event: z.string().openapi({ example: 'order.placed' }) }).openapi('WebhookPayload', {
  description: 'The JSON body POSTed to the endpoint: the event as `GET /api/events/{id}` shows it.',
});

export const DeliveryDetailSchema = DeliverySchema.extend({
  attemptHistory: z.array(AttemptSchema).openapi({ description: 'Every attempt, first to last (`attempts` counts them).' }),
  payload: z.union([DeliveryPayloadSchema, z.null()]).openapi({ description: 'The body that is sent; null if the event no longer exists.' }),
}).openapi('WebhookDeliveryDetail');
export type DeliveryDetail = z.infer<typeof DeliveryDetailSchema>;

/** Redeliver and test take no options; an empty object (or no body) is accepted. */
export const NoOptionsBody = z.strictObject({}).openapi('NoOptions');
