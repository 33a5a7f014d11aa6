import { count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { notifications, type NotificationRow } from '../../db/schema';
import { notificationTemplates, type NotificationTemplateRow } from '../../db/schema/notifications';
import { assertCovers, type Principal } from '../../lib/access';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { DEFAULT_TEMPLATES } from '../../notifications/defaults';
import { renderMessage, unknownPlaceholders } from '../../notifications/render';
import { carriesCredential, SAMPLE_DATA, triggerVariables } from '../../notifications/triggers';
import type { notificationListQuery, templateListQuery } from './notifications.query';
import type { Notification, NotificationTemplate, PreviewTemplateInput, UpdateTemplateInput } from './notifications.schemas';

/** Twilio's limit for one message's body. */
export const MAX_SMS_LENGTH = 1600;

const toNotification = ({ dedupeKey: _key, ...row }: NotificationRow): Notification => row;

export async function listNotifications(db: Database, query: ParsedListQuery<typeof notificationListQuery.filters>, config: typeof notificationListQuery) {
  const plan = listPlan(config, query);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(notifications)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(notifications).where(plan.matching),
  ]);
  return { items: rows.map(toNotification), total: totals[0]!.total };
}

export async function getNotification(db: Database, id: string): Promise<Notification> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  if (!row) throw ApiError.notFound('Notification', id);
  return toNotification(row);
}

// ---------------------------------------------------------------------------------------------
// Templates

const toTemplate = (row: NotificationTemplateRow): NotificationTemplate => ({ ...row, variables: triggerVariables(row.event) });

export async function listTemplates(db: Database, query: ParsedListQuery<typeof templateListQuery.filters>, config: typeof templateListQuery) {
  const plan = listPlan(config, query);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(notificationTemplates)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(notificationTemplates).where(plan.matching),
  ]);
  return { items: rows.map(toTemplate), total: totals[0]!.total };
}

async function templateRow(db: Database, id: string): Promise<NotificationTemplateRow> {
  const [row] = await db.select().from(notificationTemplates).where(eq(notificationTemplates.id, id));
  if (!row) throw ApiError.notFound('Notification template', id);
  return row;
}

export async function getTemplate(db: Database, id: string): Promise<NotificationTemplate> {
  return toTemplate(await templateRow(db, id));
}

type Texts = Pick<NotificationTemplateRow, 'subject' | 'body' | 'bodyHtml'>;

/** Every problem of a template's texts at once (422): unknown variables, and what its channel needs or refuses. */
function textProblems(template: Pick<NotificationTemplateRow, 'channel' | 'event'>, texts: Texts): FieldProblem[] {
  const known = triggerVariables(template.event);
  const errors: FieldProblem[] = [];
  for (const field of ['subject', 'body', 'bodyHtml'] as const) {
    const unknown = unknownPlaceholders(texts[field], known);
    if (unknown.length) errors.push({ field, problem: `uses unknown variable(s) ${unknown.map((v) => `{{${v}}}`).join(', ')}; this template's are: ${known.join(', ')}` });
  }
  if (template.channel === 'email' && !texts.subject) errors.push({ field: 'subject', problem: 'is required for an email template', code: 'required' });
  if (template.channel === 'sms') {
    if (texts.subject) errors.push({ field: 'subject', problem: 'must be null for an SMS template' });
    if (texts.bodyHtml) errors.push({ field: 'bodyHtml', problem: 'must be null for an SMS template' });
    if (texts.body.length > MAX_SMS_LENGTH) errors.push({ field: 'body', problem: `must be at most ${MAX_SMS_LENGTH} characters for SMS`, code: 'too_big' });
  }
  return errors;
}

const merged = (current: Texts, patch: Partial<Texts>): Texts => ({
  subject: patch.subject !== undefined ? patch.subject : current.subject,
  body: patch.body ?? current.body,
  bodyHtml: patch.bodyHtml !== undefined ? patch.bodyHtml : current.bodyHtml,
});

/**
 * A template whose messages carry a credential (its trigger's `credentials`: a reset link, a cart's
 * recovery link) is changed, reset included, only by a caller covering `*` (the grant rule): its
 * texts decide where that credential goes, and so who signs in as the account or takes over the cart.
 */
function assertMayChange(actor: Principal, template: Pick<NotificationTemplateRow, 'key' | 'event'>): void {
  if (carriesCredential(template.event))
    assertCovers(actor, { permissions: ['*'] }, `change the '${template.key}' template: its messages carry a credential (a link that opens an account or a customer's cart)`);
}

export async function updateTemplate(db: Database, actor: Principal, id: string, patch: UpdateTemplateInput, now = new Date()): Promise<NotificationTemplate> {
  const current = await templateRow(db, id);
  assertMayChange(actor, current);
  if (Object.keys(patch).length === 0) return toTemplate(current);
  const errors = textProblems(current, merged(current, patch));
  if (errors.length) throw ApiError.validation(errors);
  const [row] = await db
    .update(notificationTemplates)
    .set({ ...patch, updatedAt: now.toISOString() })
    .where(eq(notificationTemplates.id, id))
    .returning();
  if (!row) throw ApiError.notFound('Notification template', id);
  return toTemplate(row);
}

/** Back to the texts the store started with (and active); 404 for a template that has no default. */
export async function resetTemplate(db: Database, actor: Principal, id: string, now = new Date()): Promise<NotificationTemplate> {
  const current = await templateRow(db, id);
  assertMayChange(actor, current);
  const original = DEFAULT_TEMPLATES.find((t) => t.key === current.key && t.channel === current.channel);
  if (!original) throw ApiError.notFound('Default for notification template', id);
  const [row] = await db
    .update(notificationTemplates)
    .set({ subject: original.subject, body: original.body, bodyHtml: original.bodyHtml, active: true, updatedAt: now.toISOString() })
    .where(eq(notificationTemplates.id, id))
    .returning();
  return toTemplate(row!);
}

/** Renders the stored texts, or drafts of them, with sample data overlaid by the caller's; checks them as a save would. */
export async function previewTemplate(db: Database, id: string, input: PreviewTemplateInput) {
  const current = await templateRow(db, id);
  const texts = merged(current, input);
  const known = triggerVariables(current.event);
  const errors = textProblems(current, texts);
  const strangers = Object.keys(input.data ?? {}).filter((name) => !known.includes(name));
  if (strangers.length) errors.push({ field: 'data', problem: `names unknown variable(s) ${strangers.join(', ')}; this template's are: ${known.join(', ')}` });
  if (errors.length) throw ApiError.validation(errors);
  const data = { ...Object.fromEntries(known.map((name) => [name, SAMPLE_DATA[name] ?? ''])), ...input.data };
  return { ...renderMessage(texts, data), data };
}
