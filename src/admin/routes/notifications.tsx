import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { covers, hasPermission } from '../../lib/access';
import { notificationListQuery, templateListQuery, notificationsRoutes as routes, notificationsService as service } from '../../modules/notifications';
import { type NotificationTemplate, PreviewTemplateBody, UpdateTemplateBody } from '../../modules/notifications/schemas';
import { DEFAULT_TEMPLATES } from '../../notifications/defaults';
import { carriesCredential, isTrigger, TRIGGERS, triggerVariables } from '../../notifications/triggers';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { checked, failure, failureStatus, type Posted, readForm, redirectWith, refill, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { MessageLogPage, MessagePage, type Rendered, TemplateEditPage, TemplateListPage } from '../pages/notifications';

const HERE = '/admin/notifications';
type C = Context<AppEnv>;

/** Every trigger a template can have, and every template key, for the filters' selects. */
const EVENTS = Object.keys(TRIGGERS);
const TEMPLATE_KEYS = [...new Set(DEFAULT_TEMPLATES.map((t) => t.key))].sort();

/**
 * A textarea's text as typed: browsers submit line breaks as CRLF, stored texts use LF, so an
 * unchanged field saves unchanged. Not trimmed (a body's layout is its own); blank stays blank so
 * the schema names the field.
 */
const text = (form: Posted, name: string): string | undefined => form[name]?.[0]?.replace(/\r\n?/g, '\n');
/** An optional text (subject, HTML body): blank clears it (null), which the service refuses where the channel needs it. */
const textOrNull = (form: Posted, name: string): string | null => {
  const value = text(form, name);
  return value === undefined || value.trim() === '' ? null : value;
};

/** The edit form as the API's PATCH body: SMS templates have no subject and no HTML part to send. */
function templateTexts(form: Posted, template: NotificationTemplate) {
  const email = template.channel === 'email';
  return {
    ...(email ? { subject: textOrNull(form, 'subject')?.trim() ?? null } : {}),
    body: text(form, 'body') ?? '',
    ...(email ? { bodyHtml: textOrNull(form, 'bodyHtml') } : {}),
  };
}

const templateValues = (t: NotificationTemplate): Record<string, unknown> => ({ subject: t.subject, body: t.body, bodyHtml: t.bodyHtml, active: t.active });

async function editPage(c: C, id: string, form?: FormState, status = 200, preview?: Rendered) {
  const template = await service.getTemplate(c.var.db, id);
  const principal = c.var.principal;
  const descriptions: Record<string, string> = isTrigger(template.event) ? TRIGGERS[template.event].variables : {};
  const view = (
    <TemplateEditPage
      template={template}
      variables={triggerVariables(template.event).map((name) => [name, descriptions[name] ?? ''])}
      form={form ?? emptyForm(templateValues(template))}
      preview={preview}
      csrf={sessionOf(c).csrfToken}
      canWrite={hasPermission(principal, 'notifications:write')}
      needsEverything={carriesCredential(template.event)}
      mayChangeIt={covers(principal, { permissions: ['*'] })}
    />
  );
  return page(c, { title: `Template ${template.key} (${template.channel})`, active: HERE, status }, view);
}

/** What a failed form is shown again with: the texts as posted, the checkbox as ticked. */
const posted = (form: Posted) => ({ ...refill(form), active: checked(form, 'active') });

export const notificationRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listTemplates), async (c) => {
    const { query, values } = listQuery(c, templateListQuery);
    const { items, total } = await service.listTemplates(c.var.db, query, templateListQuery);
    return page(
      c,
      { title: 'Notification templates', active: HERE },
      <TemplateListPage templates={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} events={EVENTS} />,
    );
  })
  .get('/log', guard(routes.listNotifications), async (c) => {
    const { query, values } = listQuery(c, notificationListQuery);
    const { items, total } = await service.listNotifications(c.var.db, query, notificationListQuery);
    return page(
      c,
      { title: 'Message log', active: HERE },
      <MessageLogPage messages={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} templates={TEMPLATE_KEYS} />,
    );
  })
  .get('/log/:id', guard(routes.getNotification), async (c) => {
    const message = await service.getNotification(c.var.db, c.req.param('id'));
    const template = DEFAULT_TEMPLATES.find((t) => t.key === message.template && t.channel === message.channel);
    return page(c, { title: `Message to ${message.recipient}`, active: HERE }, <MessagePage message={message} templateId={template?.id ?? null} />);
  })
  .get('/:id', guard(routes.getTemplate), (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.updateTemplate), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const current = await service.getTemplate(c.var.db, id);
      const patch = validate(UpdateTemplateBody, { ...templateTexts(form, current), active: checked(form, 'active') });
      const saved = await service.updateTemplate(c.var.db, c.var.principal, id, patch);
      return redirectWith(c, `${HERE}/${saved.id}`, 'Template saved: messages planned from now on use it.');
    } catch (error) {
      return editPage(c, id, failure(error, posted(form)), failureStatus(error));
    }
  })
  .post('/:id/preview', guard(routes.previewTemplate), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const current = await service.getTemplate(c.var.db, id);
      const rendered = await service.previewTemplate(c.var.db, id, validate(PreviewTemplateBody, templateTexts(form, current)));
      return editPage(c, id, emptyForm(posted(form)), 200, rendered);
    } catch (error) {
      return editPage(c, id, failure(error, posted(form)), failureStatus(error));
    }
  })
  .post('/:id/reset', guard(routes.resetTemplate), async (c) => {
    const template = await service.resetTemplate(c.var.db, c.var.principal, c.req.param('id'));
    return redirectWith(c, `${HERE}/${template.id}`, 'Template reset to its default, and switched on.');
  });
