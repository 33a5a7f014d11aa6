import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications, type NotificationRow } from '../db/schema';
import { notificationTemplates, type NotificationTemplateRow } from '../db/schema-notifications';
import type { Bindings } from '../env';
import { ID_PREFIX, newId } from '../lib/ids';
import { type Contact, eventContext } from './context';
import { sendNotificationMessages } from './messages';
import { staffRecipients } from './recipients';
import { renderMessage, type TemplateData } from './render';
import { isTrigger, TRIGGERS } from './triggers';

/** D1 binds at most 100 parameters a statement; a notification row takes 21. */
const ROWS_PER_INSERT = 4;

type Template = Pick<NotificationTemplateRow, 'key' | 'channel' | 'category' | 'subject' | 'body' | 'bodyHtml'>;

/**
 * Where a template's message to `contact` goes, or why it does not. Transactional email always
 * goes; marketing email only to an account that has not opted out (never to a guest, who could not
 * opt out); SMS only to an account with a phone number that has not opted out. An opt-out is
 * recorded as a `skipped` message, so the log says why nothing was sent.
 */
export function address(template: Pick<Template, 'channel' | 'category'>, contact: Contact): { to: string; skip: string | null } | null {
  if (template.channel === 'sms') {
    if (!contact.userId || !contact.phone) return null;
    return { to: contact.phone, skip: contact.smsOptOut ? 'the recipient opted out of SMS' : null };
  }
  if (!contact.email) return null;
  if (template.category === 'marketing') {
    if (!contact.userId) return null;
    return { to: contact.email, skip: contact.marketingEmailOptOut ? 'the recipient opted out of marketing email' : null };
  }
  return { to: contact.email, skip: null };
}

export interface NewNotification {
  template: Template;
  to: string;
  skip: string | null;
  userId: string | null;
  data: TemplateData;
  /** What caused it, for the dedupe key: the event id, or an internal cause (`reset:<token id>`). */
  cause: string;
  eventId: string | null;
}

/** A complete row, rendered; one per cause, template, channel and recipient (its dedupe key). */
export function notificationRow(n: NewNotification, now = new Date()): NotificationRow {
  const ts = now.toISOString();
  const rendered = renderMessage({ subject: n.template.channel === 'email' ? n.template.subject : null, body: n.template.body, bodyHtml: n.template.channel === 'email' ? n.template.bodyHtml : null }, n.data);
  return {
    id: newId(ID_PREFIX.notification, now.getTime()),
    channel: n.template.channel,
    recipient: n.to,
    template: n.template.key,
    ...rendered,
    data: n.data,
    status: n.skip ? 'skipped' : 'queued',
    category: n.template.category,
    eventId: n.eventId,
    recipientUserId: n.userId,
    dedupeKey: `${n.cause}|${n.template.key}.${n.template.channel}|${n.to}`,
    provider: null,
    providerMessageId: null,
    attempts: 0,
    lastError: n.skip,
    lastAttemptAt: null,
    sentAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
}

/** The messages an outbox event calls for: one per active template of its type and recipient. */
export async function planEventNotifications(db: Database, event: { id: string; type: string; data: Record<string, unknown> }, now = new Date()): Promise<NotificationRow[]> {
  if (!isTrigger(event.type)) return [];
  const templates = await db.select().from(notificationTemplates).where(and(eq(notificationTemplates.event, event.type), eq(notificationTemplates.active, true)));
  if (templates.length === 0) return [];
  const context = await eventContext(db, event.type, event.data);
  if (!context) return [];
  const permission = TRIGGERS[event.type].permission;
  const staff = permission && templates.some((t) => t.audience === 'admin') ? await staffRecipients(db, permission) : [];
  const rows: NotificationRow[] = [];
  for (const template of templates) {
    const contacts: Contact[] =
      template.audience === 'admin'
        ? staff.map((s) => ({ email: s.email, phone: s.phone, userId: s.userId, smsOptOut: false, marketingEmailOptOut: false, name: null }))
        : context.customer
          ? [context.customer]
          : [];
    for (const contact of contacts) {
      const target = address(template, contact);
      if (!target) continue;
      rows.push(notificationRow({ template, ...target, userId: contact.userId, data: context.data, cause: event.id, eventId: event.id }, now));
    }
  }
  return rows;
}

/** Inserts the rows a cause has not had yet (dedupe key) and returns the ids of the new queued ones. */
export async function insertNotifications(db: Database, rows: NotificationRow[]): Promise<string[]> {
  const inserted: { id: string; status: string }[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    inserted.push(
      ...(await db
        .insert(notifications)
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoNothing({ target: notifications.dedupeKey })
        .returning({ id: notifications.id, status: notifications.status })),
    );
  }
  return inserted.filter((r) => r.status === 'queued').map((r) => r.id);
}

/**
 * The notification half of the store-events consumer: plans the event's messages, records them,
 * and puts each new queued one on the notifications queue. An event processed twice records and
 * sends nothing new; a retried message (attempts > 1) also sends the queued rows of this event that
 * were never tried, in case the earlier run recorded them and then failed to queue them.
 */
export async function notifyForEvent(db: Database, env: Pick<Bindings, 'NOTIFICATIONS_QUEUE'>, event: { id: string; type: string; data: Record<string, unknown> }, attempts: number): Promise<number> {
  const ids = new Set(await insertNotifications(db, await planEventNotifications(db, event)));
  if (attempts > 1) {
    const untried = await db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.eventId, event.id), eq(notifications.status, 'queued'), eq(notifications.attempts, 0)));
    for (const row of untried) ids.add(row.id);
  }
  if (ids.size > 0) await sendNotificationMessages(env, [...ids]);
  return ids.size;
}
