import { and, eq } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { jsonRows, rowsFromJson } from '../db/json-rows';
import { notifications, type NotificationRow } from '../db/schema';
import { notificationTemplates, type NotificationTemplateRow } from '../db/schema/notifications';
import { ID_PREFIX, newId } from '../lib/ids';
import { type Contact, type ContextEvent, contextReads, type Links } from './context';
import { recipients, staffReads } from './recipients';
import { renderMessage, type TemplateData } from './render';
import { onlyCredentialsRedacted } from './redaction';
import { credentialVariables, isTrigger, TRIGGERS } from './triggers';

type Template = Pick<NotificationTemplateRow, 'key' | 'event' | 'channel' | 'category' | 'subject' | 'body' | 'bodyHtml'>;

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
  /** What caused it, for the dedupe key: the event id, or an internal cause (`password_reset:<reset id>`). */
  cause: string;
  eventId: string | null;
}

/** The cause a row was written for: the first part of its dedupe key. */
export const causeOf = (row: Pick<NotificationRow, 'dedupeKey'>): string | null => row.dedupeKey?.split('|', 1)[0] ?? null;

/**
 * A complete row, rendered; one per cause, template, channel and recipient (its dedupe key). Only
 * the template's credential variables may hold `[redacted]`, the mark the token is put back into.
 */
export function notificationRow(n: NewNotification, now = new Date()): NotificationRow {
  const ts = now.toISOString();
  const data = onlyCredentialsRedacted(n.data, credentialVariables(n.template.event));
  const rendered = renderMessage(
    { subject: n.template.channel === 'email' ? n.template.subject : null, body: n.template.body, bodyHtml: n.template.channel === 'email' ? n.template.bodyHtml : null },
    data,
  );
  return {
    id: newId(ID_PREFIX.notification, now.getTime()),
    channel: n.template.channel,
    recipient: n.to,
    template: n.template.key,
    ...rendered,
    data,
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

/** Every active template, for a consumer to read once per batch (in a D1 batch of its own). */
export const activeTemplates = compiled((db) => db.select().from(notificationTemplates).where(eq(notificationTemplates.active, true)));

/**
 * The messages the events call for: one per active template of the event's type and recipient,
 * by event id. `templates` are the active ones (activeTemplates), read once for the batch; the
 * contexts of every event (and the staff, when an admin template needs them) come in ONE D1 batch,
 * and none at all when no event has a template. An event whose messages could not be planned gets
 * its error, not the others'.
 */
export async function planNotifications(
  db: Database,
  events: readonly ContextEvent[],
  templates: readonly NotificationTemplateRow[],
  now = new Date(),
  links: Links = {},
): Promise<Map<string, NotificationRow[] | { error: unknown }>> {
  const planned = new Map<string, NotificationRow[] | { error: unknown }>(events.map((event) => [event.id, []]));
  const byType = new Map<string, NotificationTemplateRow[]>();
  for (const template of templates) if (template.active) byType.set(template.event, [...(byType.get(template.event) ?? []), template]);
  // Event ids are time-ordered: planned oldest first, so the ids handed out below follow the causes.
  const relevant = events.filter((event) => isTrigger(event.type) && byType.has(event.type)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (relevant.length === 0) return planned;

  const needsStaff = relevant.some((event) => isTrigger(event.type) && TRIGGERS[event.type].permission && byType.get(event.type)!.some((t) => t.audience === 'admin'));
  const context = contextReads(db, relevant, links);
  const staff = needsStaff ? staffReads(db) : undefined;
  let contexts: ReturnType<typeof context.contexts>;
  let staffRows: Parameters<typeof recipients>[0] = [];
  let settings: Parameters<typeof recipients>[1] = [];
  try {
    const results = await db.batch([...context.statements, ...(staff ? [staff.staff, staff.settings] : [])] as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    contexts = context.contexts(results.slice(0, context.statements.length));
    if (staff) [staffRows, settings] = results.slice(context.statements.length) as [typeof staffRows, typeof settings];
  } catch (error) {
    for (const event of relevant) planned.set(event.id, { error });
    return planned;
  }

  for (const event of relevant) {
    try {
      const ctx = contexts.get(event.id);
      if (!ctx || !isTrigger(event.type)) continue;
      const permission = TRIGGERS[event.type].permission;
      const rows: NotificationRow[] = [];
      for (const template of byType.get(event.type)!) {
        const contacts: Contact[] =
          template.audience === 'admin'
            ? permission
              ? recipients(staffRows, settings, permission).map((s) => ({
                  email: s.email,
                  phone: s.phone,
                  userId: s.userId,
                  smsOptOut: false,
                  marketingEmailOptOut: false,
                  name: null,
                }))
              : []
            : ctx.customer
              ? [ctx.customer]
              : [];
        for (const contact of contacts) {
          const target = address(template, contact);
          if (!target) continue;
          rows.push(notificationRow({ template, ...target, userId: contact.userId, data: ctx.data, cause: event.id, eventId: event.id }, now));
        }
      }
      planned.set(event.id, rows);
    } catch (error) {
      planned.set(event.id, { error });
    }
  }
  idsInPlanOrder(
    relevant.flatMap((event) => {
      const rows = planned.get(event.id)!;
      return 'error' in rows ? [] : rows;
    }),
  );
  return planned;
}

/**
 * Rows planned together share one `now`, so lists (created_at, then id) would order them by the ids'
 * random part. The same ids, sorted, handed out in plan order make them list in the order of their
 * causes: the welcome before the order confirmation that came in the same queue batch.
 */
function idsInPlanOrder(rows: NotificationRow[]): void {
  const ids = rows.map((row) => row.id).sort();
  rows.forEach((row, i) => (row.id = ids[i]!));
}

/** The messages one outbox event calls for (the consumer plans a whole batch with planNotifications). */
export async function planEventNotifications(db: Database, event: ContextEvent, now = new Date()): Promise<NotificationRow[]> {
  const templates = await db
    .select()
    .from(notificationTemplates)
    .where(and(eq(notificationTemplates.event, event.type), eq(notificationTemplates.active, true)));
  const planned = (await planNotifications(db, [event], templates, now)).get(event.id)!;
  if ('error' in planned) throw planned.error;
  return planned;
}

/**
 * Inserts the rows no cause has had yet (dedupe key), however many, in one statement (one per
 * 512 K characters of rows), and returns the new ones' ids and statuses: for a consumer's D1 batch.
 */
const insertRows = compiled((db, p: Slot<'rows'>) =>
  db
    .insert(notifications)
    .select(rowsFromJson(notifications, p('rows')))
    .onConflictDoNothing({ target: notifications.dedupeKey })
    .returning({ id: notifications.id, status: notifications.status, eventId: notifications.eventId }),
);
export const insertNotificationRows = (db: Database, rows: readonly NotificationRow[]) => jsonRows(notifications, rows).map((json) => insertRows(db, { rows: json }));

/** Inserts the rows a cause has not had yet (dedupe key) and returns the ids of the new queued ones. */
export async function insertNotifications(db: Database, rows: NotificationRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = (await db.batch(insertNotificationRows(db, rows) as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])) as { id: string; status: string }[][];
  return inserted
    .flat()
    .filter((r) => r.status === 'queued')
    .map((r) => r.id);
}
