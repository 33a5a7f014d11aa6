import { lt } from 'drizzle-orm';
import { createDb } from './db/client';
import { idempotencyKeys } from './db/schema';
import type { Bindings } from './env';
import { bumpForScheduledContent } from './modules/pages';
import { IDEMPOTENCY_TTL_MS } from './middleware/idempotency';
import { config } from './config';
import { abandonIdleCarts } from './modules/carts';
import { pruneEvents } from './modules/events';
import { deleteUnusedObjects } from './modules/products';
import { expireUnpaidOrders, reconcilePending } from './modules/payments';
import { requeueStalledNotifications } from './notifications/stalled';
import { publishLeftoverEvents } from './webhooks/publisher';
import { requeueStalledDeliveries } from './webhooks/stalled';

/** The hourly cron of wrangler.toml; every other cron run is the one-minute sweep. */
export const HOURLY_CRON = '17 * * * *';

/**
 * The crons (wrangler.toml `[triggers]`). Every minute: publish outbox events left unpublished for
 * 30 s (a crash between commit and send loses nothing; fresher ones are on the queue already, sent
 * by their requests), send again deliveries whose queue message was lost, and notifications
 * whose message was lost, cancel orders left unpaid past ORDER_PAYMENT_TTL_MINUTES (their events
 * go out with the next minute's sweep), and settle payments and refunds whose outcome was not
 * recorded (src/modules/payments/reconcile.ts), and change the catalogue version when a
 * scheduled page or banner came due (src/modules/pages/scheduled-content.ts), and mark idle carts abandoned
 * (src/modules/carts/abandonment.ts). Hourly: drop remembered idempotent responses once their 24 hours are over
 * (reads already ignore them; this keeps the table small), and delete stored image files no image uses whose requests
 * did not get to (src/modules/products/product-media.objects.ts), and prune events older than EVENT_RETENTION_DAYS (src/modules/events/events.prune.ts). Plain `wrangler dev` fires no cron:
 * `npm run dev` starts it with `--test-scheduled` and calls `/__scheduled` on these schedules
 * (scripts/lib/dev-crons.mjs), and the store-events consumer also sweeps up leftovers and, once a
 * minute, stalled messages (src/webhooks/publisher.ts, src/queues/stalled-sweep.ts).
 */
export async function runScheduled(env: Bindings, cron: string, now = new Date()) {
  if (cron !== HOURLY_CRON) {
    return {
      eventsPublished: await publishLeftoverEvents(env, now),
      deliveriesRequeued: await requeueStalledDeliveries(env, now),
      notificationsRequeued: await requeueStalledNotifications(env, now),
      ordersExpired: await expireUnpaidOrders(env, now),
      ...(await reconcilePending(env, now)),
      scheduledContentCame: await bumpForScheduledContent(createDb(env.DB), now),
      cartsAbandoned: await abandonIdleCarts(env, now),
    };
  }
  const db = createDb(env.DB);
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const result = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  const mediaFilesDeleted = (await deleteUnusedObjects(db, env.MEDIA, undefined, now)).length;
  const eventsPruned = await pruneEvents(db, config(env).EVENT_RETENTION_DAYS, now);
  return { idempotencyKeysDeleted: result.meta.changes, mediaFilesDeleted, eventsPruned };
}
