import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { idField } from '../../lib/event-fields';
import { ProductSchema } from './products.schemas';

const ProductEventData = z.object({ productId: idField('prod_01JD0000000000000000000000'), product: ProductSchema });

/**
 * The `data` of the product events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'product.created': { data: ProductEventData, summary: 'A product was created', description: 'A product was created; `product` is as `GET /api/products/{id}` answers it.' },
  'product.updated': {
    data: ProductEventData,
    summary: 'A product changed',
    description: 'A product, one of its variants or its media changed (also by an import); `product` is the product as it now stands.',
  },
  'product.deleted': { data: ProductEventData, summary: 'A product was deleted', description: 'A product was deleted; `product` is the product as it was.' },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
