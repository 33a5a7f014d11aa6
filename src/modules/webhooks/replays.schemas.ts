import { z } from '@hono/zod-openapi';
import { WEBHOOK_REPLAY_STATUSES, webhookReplays } from '../../db/schema';
import { createSelectSchema, Instant, Timestamp } from '../../lib/schemas';
import { EventKindPatterns } from './event-kinds';

/** Replays an endpoint may start in an hour (429 beyond), one at a time (409 while one is queued or running). */
export const REPLAYS_PER_HOUR = 5;

export const REPLAY_STATUS_DESCRIPTION =
  '`queued` (waiting for the replay queue), `running` (pages of the window being queued), `completed` (every matching event was looked at), `failed` (stopped; `error` says why).';

export const ReplaySchema = createSelectSchema(webhookReplays, {
  status: z.enum(WEBHOOK_REPLAY_STATUSES).openapi({ description: REPLAY_STATUS_DESCRIPTION }),
  from: Timestamp.openapi({ description: 'Events created at or after this time are replayed.' }),
  to: Timestamp.openapi({ description: 'Events created before this time are replayed (a `to` later than the request is taken as the time of the request).' }),
  types: z
    .array(z.string())
    .nullable()
    .openapi({ description: 'The kinds asked for, as given (`order.*` allowed); null: every kind the endpoint subscribes to.', example: ['order.*'] }),
  eventTypes: z.array(z.string()).openapi({
    description: 'The event kinds replayed: `types` expanded and narrowed to what the endpoint subscribes to.',
    example: ['order.placed', 'order.updated', 'order.cancelled'],
  }),
  matched: z.int().openapi({ description: 'Events of the window and kinds looked at so far.' }),
  queued: z.int().openapi({ description: 'Deliveries this replay created, or re-queued because they had failed for good.' }),
  skipped: z.int().openapi({ description: 'Events already delivered, or on their way (pending or retrying), to this endpoint: not sent again.' }),
  error: z.string().nullable().openapi({ description: 'Why a `failed` replay stopped.' }),
  finishedAt: Timestamp.nullable().openapi({ description: 'When it completed or failed.' }),
  createdAt: Timestamp,
})
  .omit({ endpointId: true, cursor: true, updatedAt: true })
  .openapi('WebhookReplay', { description: "A replay of an endpoint's past events, and its progress. Its `id` is the `X-Store-Replay` header of the deliveries it queues." });
export type Replay = z.infer<typeof ReplaySchema>;

export const CreateReplayBody = z
  .strictObject({
    from: Instant.openapi({ description: `Replay events created at or after this time: within the events the store keeps (EVENT_RETENTION_DAYS, 30 by default).` }),
    to: Instant.openapi({ description: 'Replay events created before this time; after `from`. A time later than now is taken as now.' }),
    types: EventKindPatterns.optional().openapi({
      description: 'Only these kinds (`order.*`: every `order.` kind), each one the endpoint subscribes to. Every kind it subscribes to when left out.',
    }),
  })
  .openapi('CreateWebhookReplay');
export type CreateReplayInput = z.infer<typeof CreateReplayBody>;
