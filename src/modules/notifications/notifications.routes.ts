import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { DEFAULT_TEMPLATES } from '../../notifications/defaults';
import { carriesCredential } from '../../notifications/triggers';
import { apiRoute, errorResponses, IdParams, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { notificationListQuery, templateListQuery } from './notifications.query';
import { NotificationSchema, NotificationTemplateSchema, PreviewTemplateBody, RenderedSchema, UpdateTemplateBody } from './notifications.schemas';

const tags = ['Notifications'];
const readErrors = [400, 401, 403] as const;

const pipeline =
  'Outbox events (order placed, payment completed, shipment shipped, order cancelled, low stock, sign-up) and internal triggers (password reset, ' +
  'a webhook endpoint switched off) are turned into messages by the store-events queue consumer, one per active template and recipient, and each ' +
  'is sent by the `notifications` queue (retried with backoff, then failed). With the default `outbox` provider nothing leaves the store: ' +
  'the message is read here. A password-reset email or cart reminder is kept with its token and link `[redacted]`, whatever the provider: only the email sent holds them.';

/** Said of every template write: who may change a template whose messages carry a credential (its trigger's `credentials`). */
const credentialTemplates = [...new Set(DEFAULT_TEMPLATES.filter((t) => carriesCredential(t.event)).map((t) => `\`${t.key}\``))].join(', ');
const credentialRule =
  `The templates whose messages carry a credential (${credentialTemplates}: a link that opens an account or reopens a customer's cart) decide ` +
  'where it goes, so changing or resetting them needs `*` (403 otherwise).';

export const listNotifications = apiRoute({
  ...operation('notifications', 'list', 'listNotifications'),
  method: 'get',
  path: '/notifications',
  tags,
  summary: 'List sent and pending notifications',
  description: `Newest first. ${pipeline} Filter \`status=failed\` for what could not be sent (\`lastError\`, \`attempts\`). Needs \`notifications:read\`.`,
  policy: { access: access.permission('notifications:read') },
  request: { query: listQuerySchema(notificationListQuery) },
  responses: { 200: listResponse(NotificationSchema, 'A page of notifications.'), ...errorResponses(...readErrors) },
});

export const getNotification = apiRoute({
  ...operation('notifications', 'get', 'getNotification'),
  method: 'get',
  path: '/notifications/{id}',
  tags,
  summary: 'Get a notification',
  description: 'The rendered message and its delivery state.',
  policy: { access: access.permission('notifications:read') },
  request: { params: IdParams, query: readQuerySchema(notificationListQuery.selectable) },
  responses: { 200: successResponse(NotificationSchema, 'The notification.'), ...errorResponses(...readErrors, 404) },
});

const templateRules =
  '`subject` is required for email and must be null for SMS, as must `bodyHtml`; an SMS body has at most 1600 characters. A placeholder the ' +
  "template's event does not provide is 422 naming it (`variables` lists those it does).";

export const listTemplates = apiRoute({
  ...operation('notifications.templates', 'list', 'listNotificationTemplates'),
  method: 'get',
  path: '/notifications/templates',
  tags,
  summary: 'List notification templates',
  description: 'One per key and channel, with the variables each may use.',
  policy: { access: access.permission('notifications:read') },
  request: { query: listQuerySchema(templateListQuery) },
  responses: { 200: listResponse(NotificationTemplateSchema, 'A page of templates.'), ...errorResponses(...readErrors) },
});

export const getTemplate = apiRoute({
  ...operation('notifications.templates', 'get', 'getNotificationTemplate'),
  method: 'get',
  path: '/notifications/templates/{id}',
  tags,
  summary: 'Get a notification template',
  policy: { access: access.permission('notifications:read') },
  request: { params: IdParams, query: readQuerySchema(templateListQuery.selectable) },
  responses: { 200: successResponse(NotificationTemplateSchema, 'The template.'), ...errorResponses(...readErrors, 404) },
});

export const updateTemplate = apiRoute({
  ...operation('notifications.templates', 'update', 'updateNotificationTemplate'),
  method: 'patch',
  path: '/notifications/templates/{id}',
  tags,
  summary: 'Edit a notification template',
  description: `Messages planned from now on use the new texts; those already written keep theirs. ${credentialRule} ${templateRules} Needs \`notifications:write\`.`,
  policy: { access: access.permission('notifications:write') },
  request: { params: IdParams, body: jsonBody(UpdateTemplateBody, 'Fields to change.') },
  responses: { 200: successResponse(NotificationTemplateSchema, 'The updated template.'), ...errorResponses(...writeErrors, 404) },
});

export const previewTemplate = apiRoute({
  ...operation('notifications.templates', 'preview', 'previewNotificationTemplate'),
  method: 'post',
  path: '/notifications/templates/{id}/preview',
  tags,
  summary: 'Render a template (or a draft of it) without saving',
  description: `Renders the stored texts, or the drafts given, with sample values overlaid by \`data\`, and checks them as a save would. ${templateRules} Needs \`notifications:write\`.`,
  policy: { access: access.permission('notifications:write') },
  request: { params: IdParams, body: jsonBody(PreviewTemplateBody, 'Drafts and data.') },
  responses: { 200: successResponse(RenderedSchema, 'The rendered message and the data used.'), ...errorResponses(...writeErrors, 404) },
});

export const resetTemplate = apiRoute({
  ...operation('notifications.templates', 'reset', 'resetNotificationTemplate'),
  method: 'post',
  path: '/notifications/templates/{id}/reset',
  tags,
  summary: 'Put a template back to its default',
  description: `Restores the texts the store started with and switches it on. ${credentialRule} Needs \`notifications:write\`.`,
  policy: { access: access.permission('notifications:write') },
  // Like every action POST, it takes an optional JSON body; this one has nothing to say.
  request: { params: IdParams, body: { ...jsonBody(z.strictObject({}), 'Nothing: an empty object, or no body.'), required: false } },
  responses: { 200: successResponse(NotificationTemplateSchema, 'The template, as it was at first.'), ...errorResponses(...writeErrors, 404) },
});
