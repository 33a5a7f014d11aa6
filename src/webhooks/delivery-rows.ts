import { compiled, type Slot } from '../db/compiled';
import { rowsFromJson } from '../db/json-rows';
import { type WebhookDeliveryRow, webhookDeliveries } from '../db/schema';
import { ID_PREFIX, newId } from '../lib/ids';

/** A new, untried delivery of one event to one endpoint; `replayId` when a replay creates it. */
export function pendingDelivery(event: { id: string; type: string }, endpointId: string, now: Date, replayId: string | null = null): WebhookDeliveryRow {
  const ts = now.toISOString();
  return {
    id: newId(ID_PREFIX.webhookDelivery, now.getTime()),
    endpointId,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    lastAttemptAt: null,
    nextRetryAt: null,
    deliveredAt: null,
    replayId,
    createdAt: ts,
    updatedAt: ts,
  };
}

/**
 * Inserts deliveries (rows of `jsonRows(webhookDeliveries, ...)`), each at most once: unique per
 * (event, endpoint), so an event published twice, or replayed, gets one delivery per endpoint. Only
 * the rows inserted here come back, and only those are sent, so a receiver never gets a duplicate.
 */
export const insertDeliveries = compiled((db, p: Slot<'rows'>) =>
  db
    .insert(webhookDeliveries)
    .select(rowsFromJson(webhookDeliveries, p('rows')))
    .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.endpointId] })
    .returning({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId }),
);
