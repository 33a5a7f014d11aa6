import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import type { EventKind } from '../lib/define-module';
import { type EventType, PING_EVENT } from '../lib/events';
import { Timestamp } from '../lib/schemas';
import { EventSchema } from '../modules/events/schemas';
import { EVENT_TYPES, eventKinds } from '../modules/registry';
import { PING_KIND } from '../webhooks/ping';

/** `order.placed` -> `OrderPlaced`, `gift_card.issued` -> `GiftCardIssued`: the stem of its components' names (`OrderPlacedEvent`, `OrderPlacedEventData`). */
export const eventComponentStem = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** The body of a delivery of `type` (src/webhooks/payload.ts): `{ id, event, data, timestamp, position, resourceId, sequence }`. */
export function eventEnvelopeSchema(type: EventType | typeof PING_EVENT, kinds: Record<EventType, EventKind>) {
  const kind = type === PING_EVENT ? PING_KIND : kinds[type];
  const stem = eventComponentStem(type);
  return z
    .object({
      id: z.string().openapi({ description: 'The event id (`evt_...`), the same in every delivery of the event to every endpoint.', example: 'evt_01JD0000000000000000000000' }),
      event: z.enum([type]),
      data: kind.data.openapi(`${stem}EventData`),
      timestamp: Timestamp.openapi({ description: 'When the event happened (not when this attempt was sent).' }),
      ...EventSchema.pick({ position: true, resourceId: true, sequence: true }).shape,
    })
    .openapi(`${stem}Event`, { description: `The body of each \`${type}\` delivery. ${kind.description}` });
}

const SIGNATURE_HEADERS = z.object({
  'X-Store-Event': z.string().openapi({ description: 'The event kind, as in the body.' }),
  'X-Store-Delivery': z.string().openapi({ description: 'Unique per event and endpoint, the same on every retry: deduplicate on it.', example: 'whd_01JD0000000000000000000000' }),
  'X-Store-Signature': z.string().openapi({ description: 'Lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_...`).' }),
  'X-Store-Signature-Previous': z
    .string()
    .optional()
    .openapi({ description: "During a secret rotation's overlap: the same, signed with the previous secret. Accept the delivery when either matches." }),
  'X-Store-Replay': z.string().optional().openapi({
    description: 'On a delivery sent by a replay (`POST /api/webhooks/{id}/replay`): the replay id. Absent on live deliveries.',
    example: 'whr_01JD0000000000000000000000',
  }),
  'webhook-id': z.string().openapi({ description: 'Standard Webhooks: the delivery id, as `X-Store-Delivery`.' }),
  'webhook-timestamp': z.string().openapi({ description: 'Standard Webhooks: Unix seconds of this attempt.', example: '1767323045' }),
  'webhook-signature': z.string().openapi({
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the base64-decoded secret after `whsec_`; two space-separated entries during a rotation.',
  }),
});

/**
 * The OpenAPI document's `webhooks`: one entry per event kind and `ping`, named by the kind, each
 * POSTing its envelope (named components `<Kind>Event` and `<Kind>EventData`) with the signature
 * headers. Generated from the modules' event schemas (their `<name>.events.ts`, loaded through src/modules/registry.ts), the same as outboxEvent's types, so the document and the
 * publisher cannot disagree; the clients' typed event payloads are generated from these entries.
 */
export async function registerEventWebhooks(app: OpenAPIHono<AppEnv>): Promise<void> {
  const kinds = await eventKinds();
  for (const type of [...EVENT_TYPES, PING_EVENT] as const) {
    const kind = type === PING_EVENT ? PING_KIND : kinds[type];
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Event`,
      tags: ['Events'],
      summary: kind.summary,
      description: `${kind.description} Verify the signature over the raw body before anything else (docs/webhooks.md). Any 2xx answer is success; anything else is retried with backoff for more than 24 hours.`,
      request: {
        headers: SIGNATURE_HEADERS,
        body: { required: true, content: { 'application/json': { schema: eventEnvelopeSchema(type, kinds) } } },
      },
      // The store sends no credential: the signature headers are how a receiver knows the request is the store's.
      security: [],
      responses: { '2XX': { description: 'Received. Answer fast: do the work after answering, or queue it.' } },
    });
  }
}
