import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications, storeSettings, users, webhookEndpoints, type WebhookEndpointRow } from '../db/schema';
import { ID_PREFIX, newId } from '../lib/ids';
import { insertWhere } from '../lib/insert-where';

export const DEFAULT_DISABLE_AFTER_HOURS = 72;

export interface FailedEndpoint {
  endpoint: Pick<WebhookEndpointRow, 'id' | 'url' | 'failingSince'>;
  /** What the last attempt got: an error (`timeout after 10000 ms`) or a status (`HTTP 500`). */
  problem: string;
  disableAfterHours: number;
  now: Date;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A notification id shaped like newId (time, then 16 characters) whose second part is a hash of
 * what the notice is about, so two consumers disabling the same endpoint in the same millisecond
 * produce the same ids and the second insert is dropped as a conflict.
 */
async function notificationId(at: Date, key: string): Promise<string> {
  const prefix = newId(ID_PREFIX.notification, at.getTime()).slice(0, ID_PREFIX.notification.length + 11);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return prefix + [...digest.subarray(0, 16)].map((b) => CROCKFORD[b % 32]).join('');
}

/** Who hears of it: every active admin, else the store's contact email, else nobody (the log line remains). */
async function adminRecipients(db: Database): Promise<string[]> {
  const [admins, settings] = await db.batch([
    db.select({ email: users.email }).from(users).where(and(eq(users.roleId, 'admin'), eq(users.status, 'active'))).orderBy(asc(users.email)),
    db.select({ contactEmail: storeSettings.contactEmail }).from(storeSettings).where(eq(storeSettings.id, 'store')),
  ]);
  if (admins.length > 0) return admins.map((a) => a.email);
  return settings[0]?.contactEmail ? [settings[0].contactEmail] : [];
}

/**
 * After a failed attempt: switches the endpoint off once it has failed without a single success for
 * `disableAfterHours`, and tells the admins. The switch and the notifications are one batch, and the
 * notifications are conditioned on the endpoint carrying this very `disabledAt`, so when two
 * consumers race only the one whose UPDATE found the endpoint still active writes them (and should
 * both pick the same millisecond, their notification ids are the same and the second set conflicts).
 * Returns whether this call disabled it.
 */
export async function disableIfFailingTooLong(db: Database, input: FailedEndpoint): Promise<boolean> {
  const { endpoint, now } = input;
  if (!endpoint.failingSince) return false;
  const cutoff = new Date(now.getTime() - input.disableAfterHours * 3600_000).toISOString();
  if (endpoint.failingSince > cutoff) return false;

  const disabledAt = now.toISOString();
  const reason = `failing since ${endpoint.failingSince}: ${input.problem}`;
  const recipients = await adminRecipients(db);
  const subject = `Webhook endpoint disabled: ${endpoint.url}`;
  const body = [
    `The webhook endpoint ${endpoint.url} (${endpoint.id}) has been disabled.`,
    `It has failed every delivery since ${endpoint.failingSince} (more than ${input.disableAfterHours} hours); the last attempt got: ${input.problem}.`,
    'Fix the receiver, then turn the endpoint back on with PATCH /api/webhooks/' + endpoint.id + ' {"active": true} and redeliver what it missed.',
  ].join('\n\n');
  const disabledNow = sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${endpoint.id} AND ${webhookEndpoints.active} = 0 AND ${webhookEndpoints.disabledAt} = ${disabledAt})`;

  const data = { endpointId: endpoint.id, url: endpoint.url, failingSince: endpoint.failingSince, disabledAt, reason };
  // Ids first: a drizzle query is a thenable, so it must not be returned from an async callback.
  const ids = await Promise.all(recipients.map((recipient) => notificationId(now, `${endpoint.id}|${disabledAt}|${recipient}`)));
  const inserts = recipients.map((recipient, i) =>
    insertWhere(
      db,
      notifications,
      {
        id: ids[i]!,
        channel: 'email',
        recipient,
        template: 'webhook_endpoint_disabled',
        subject,
        body,
        data,
        status: 'queued',
        bodyHtml: null,
        category: 'transactional',
        eventId: null,
        recipientUserId: null,
        dedupeKey: `webhook_endpoint_disabled|${endpoint.id}|${disabledAt}|email|${recipient}`,
        provider: null,
        providerMessageId: null,
        attempts: 0,
        lastError: null,
        lastAttemptAt: null,
        sentAt: null,
        createdAt: disabledAt,
        updatedAt: disabledAt,
      },
      disabledNow,
    ).onConflictDoNothing(),
  );
  const [updated] = await db.batch([
    db
      .update(webhookEndpoints)
      .set({ active: false, disabledAt, disabledReason: reason, updatedAt: disabledAt })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.active, true), isNotNull(webhookEndpoints.failingSince), lte(webhookEndpoints.failingSince, cutoff))),
    ...inserts,
  ]);
  if (updated.meta.changes === 0) return false;
  console.error(
    JSON.stringify({
      level: 'error',
      message: 'webhook endpoint disabled',
      endpointId: endpoint.id,
      url: endpoint.url,
      failingSince: endpoint.failingSince,
      disabledAt,
      reason,
      notified: recipients.length,
    }),
  );
  return true;
}
