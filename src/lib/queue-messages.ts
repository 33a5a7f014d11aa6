/**
 * The bodies of the Worker's queue messages, one type per queue of wrangler.toml. Kept tiny:
 * consumers read the rows, so a retried message never carries stale data. Types only, and below
 * every area that sends or consumes them (src/queues, src/webhooks, src/notifications,
 * src/modules/imports), so none imports another for a message's shape, and src/env.ts names its
 * queues' messages without importing the modules that send them.
 */

/** On `store-events`: one outbox event, to be fanned out to the endpoints that want it. */
export interface EventMessage {
  eventId: string;
}

/** On `webhook-deliveries` (and its dead-letter queue): one event for one endpoint. */
export interface DeliveryMessage {
  deliveryId: string;
}

/** On `notifications` (and its dead-letter queue): one message to one recipient. */
export interface NotificationMessage {
  notificationId: string;
}

/** On `webhook-replays`: the next page of a replay (src/webhooks/replay.ts); where it starts is kept on the replay. */
export interface ReplayMessage {
  replayId: string;
}

/** On `product-imports`: chunk `n` of an import (src/modules/imports/). */
export interface ImportMessage {
  importId: string;
  n: number;
}
