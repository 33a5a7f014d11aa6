import { z } from '@hono/zod-openapi';
import { EVENT_TYPES } from '../registry';
import { Timestamp } from '../../lib/schemas';

/**
 * An event as the store emitted it: exactly the body its webhook deliveries carry
 * (src/webhooks/payload.ts), so a consumer catching up through `GET /api/events` handles the same
 * object it would have received.
 */
export const EventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_01JD0000000000000000000000', description: 'The event id, the same in every delivery of it (dedupe on it).' }),
    event: z.enum(EVENT_TYPES).openapi({ description: 'The kind of event (`order.placed`, ...): its `data` is described under `webhooks` in this document.' }),
    data: z.record(z.string(), z.unknown()).openapi({ description: "The event's data, as its kind describes." }),
    timestamp: Timestamp.openapi({ description: 'When it was written.' }),
    position: z
      .int()
      .nullable()
      .openapi({ description: 'Where it stands among all the store wrote: increasing, never reused (the `after` / `before` cursors of `GET /api/events`).', example: 4821 }),
    resourceId: z.string().nullable().openapi({ description: 'The order, product, customer, page, cart or gift card it is about.', example: 'ord_01JD0000000000000000000000' }),
    sequence: z.int().nullable().openapi({
      description:
        '1, 2, 3, ... per resource in the order written: of two events about one resource, the higher `sequence` is the newer, whichever arrives first (docs/webhooks.md, Ordering).',
      example: 3,
    }),
  })
  .openapi('Event');
export type StoreEvent = z.infer<typeof EventSchema>;
