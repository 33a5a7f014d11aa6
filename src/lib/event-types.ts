import type { z } from '@hono/zod-openapi';

/**
 * The payload of each event kind the outbox writes, by kind. Empty here: each module's
 * `<name>.events.ts` adds its kinds by declaration merging, so the outbox (src/lib/events.ts)
 * type-checks every event against its module's schema without importing a module. The kinds'
 * names at run time are src/modules/registry.ts's EVENT_TYPES, from the modules' declarations.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging.
export interface EventPayloads {}

/** The payloads of a module's kinds: what its `<name>.events.ts` merges into EventPayloads. */
export type PayloadsOf<K extends Record<string, { data: z.ZodType }>> = { [T in keyof K]: z.infer<K[T]['data']> };

/** A domain event kind written to the outbox. */
export type EventType = keyof EventPayloads & string;

/** The `data` of an event of kind `T`, as the outbox is given it. */
export type EventData<T extends EventType> = EventPayloads[T];

/** `ping`: the test event `POST /api/webhooks/{id}/test` sends to one endpoint; never broadcast. */
export const PING_EVENT = 'ping';
