import { z } from '@hono/zod-openapi';
import { NOTIFICATION_STATUSES, notifications } from '../../db/schema';
import { notificationTemplates } from '../../db/schema/notifications';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

export const NOTIFICATION_STATUS_DESCRIPTION =
  '`queued` (waiting for the queue), `sending` (a consumer holds it), `sent` (the provider took it; with the `outbox` provider, this row is the message), ' +
  '`retrying` (the last attempt failed, another is scheduled), `failed` (retries ran out or the provider refused it for good; `lastError` says why), ' +
  '`skipped` (the recipient opted out; never sent).';

export const NotificationSchema = createSelectSchema(notifications, {
  data: z.record(z.string(), z.unknown()).openapi({
    description:
      'The variables the message was rendered with. A credential (the token and link of a password reset) is `[redacted]` here, in `subject`, `body` and `bodyHtml`: only the provider gets the real one.',
  }),
  status: z.enum(NOTIFICATION_STATUSES).openapi({ description: NOTIFICATION_STATUS_DESCRIPTION }),
  lastAttemptAt: Timestamp.nullable(),
  sentAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({ dedupeKey: true })
  .openapi('Notification', {
    description:
      'One email or SMS to one recipient, as rendered from its template, with its delivery state. `template` is the template key; `eventId` the outbox event that caused it.',
  });
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationTemplateSchema = createSelectSchema(notificationTemplates, { createdAt: Timestamp, updatedAt: Timestamp })
  .extend({
    variables: z.array(z.string()).openapi({ description: 'The `{{variables}}` this template may use (those of its event).', example: ['orderId', 'total'] }),
  })
  .openapi('NotificationTemplate', {
    description:
      'What one event sends on one channel. `subject`, `body` (plain text; the SMS text) and `bodyHtml` (email only; values are HTML-escaped in it) use `{{variable}}` placeholders.',
  });
export type NotificationTemplate = z.infer<typeof NotificationTemplateSchema>;

const Subject = z.string().trim().min(1).max(500);
const Body = z.string().min(1).max(20_000);
const Html = z.string().min(1).max(100_000);

export const UpdateTemplateBody = z
  .strictObject({
    subject: Subject.nullable().openapi({ description: 'Email only (required there); null for SMS.' }),
    body: Body.openapi({ description: 'Plain text; for SMS at most 1600 characters.' }),
    bodyHtml: Html.nullable().openapi({ description: 'Email only; null for a text-only email.' }),
    active: z.boolean().openapi({ description: 'An inactive template sends nothing.' }),
  })
  .partial()
  .openapi('UpdateNotificationTemplate');
export type UpdateTemplateInput = z.infer<typeof UpdateTemplateBody>;

const PreviewValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

export const PreviewTemplateBody = z
  .strictObject({
    subject: Subject.nullable().optional(),
    body: Body.optional(),
    bodyHtml: Html.nullable().optional(),
    data: z
      .record(z.string().max(100), PreviewValue)
      .optional()
      .openapi({ description: 'Values for the variables; sample values fill the rest.', example: { customerName: 'Grace', total: '12.00 EUR' } }),
  })
  .openapi('PreviewNotificationTemplate', { description: 'Draft texts (the stored ones where absent) and data to render them with. Nothing is saved.' });
export type PreviewTemplateInput = z.infer<typeof PreviewTemplateBody>;

export const RenderedSchema = z
  .object({ subject: z.string().nullable(), body: z.string(), bodyHtml: z.string().nullable(), data: z.record(z.string(), z.unknown()) })
  .openapi('RenderedNotification');
