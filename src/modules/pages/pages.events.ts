import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { idField } from '../../lib/event-fields';
import { PageSchema } from './pages.schemas';

const PageEventData = PageSchema.pick({ slug: true, title: true, status: true, publishedAt: true }).extend({ pageId: idField('page_01JD0000000000000000000000') });

/**
 * The `data` of the content page events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'page.published': { data: PageEventData, summary: 'A page was published', description: 'A content page became published.' },
  'page.updated': { data: PageEventData, summary: 'A published page changed', description: 'A published content page changed.' },
  'page.unpublished': { data: PageEventData, summary: 'A page was unpublished', description: 'A published content page went back to draft or was deleted.' },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
