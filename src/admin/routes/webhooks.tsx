import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import {
  deliveryListQuery,
  deliveriesRoutes as deliveryRoutes,
  deliveriesService as deliveries,
  replayWebhook as replayRoute,
  replaysService as replays,
  allowPrivateUrls,
  webhookListQuery,
  rotateWebhookSecret as rotateRoute,
  webhookRoutes as routes,
  webhooksService as service,
} from '../../modules/webhooks';
import { CreateReplayBody, CreateWebhookBody, RotateSecretBody, UpdateWebhookBody, type WebhookEndpoint } from '../../modules/webhooks/schemas';
import { utcInstant, utcLocal } from '../components/content';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { all, failure, failureStatus, num, orNull, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { WebhookDetailPage, WebhookListPage } from '../pages/webhooks';

const HERE = '/admin/webhooks';
type C = Context<AppEnv>;
const canWrite = (c: C) => hasPermission(c.var.principal, 'webhooks:write');

async function listPage(c: C, form: FormState, status = 200, created?: { endpoint: WebhookEndpoint; secret: string }) {
  const { query } = listQuery(c, webhookListQuery);
  const { items, total } = await service.listEndpoints(c.var.db, query);
  const view = <WebhookListPage endpoints={items} page={pageOf(query, total)} url={c.req.url} form={form} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} created={created} />;
  return page(c, { title: 'Webhooks', active: HERE, status }, view);
}

/** The replay form's first values: the last 24 hours, every kind the endpoint receives. */
function replayDefaults(now = new Date()): FormState {
  return emptyForm({ from: utcLocal(new Date(now.getTime() - 24 * 3_600_000).toISOString()), to: utcLocal(now.toISOString()), types: '' });
}

/** `order.*, payment.completed` (commas or spaces) as the API's list; blank: every kind. */
const kindList = (text: string | undefined) => {
  const kinds = (text ?? '').split(/[\s,]+/).filter(Boolean);
  return kinds.length ? kinds : undefined;
};

async function detailPage(c: C, id: string, extra: { secret?: string; form?: FormState; edit?: FormState; replay?: FormState } = {}, status = 200) {
  const { query } = listQuery(c, deliveryListQuery);
  const [endpoint, { items, total }, recent] = await Promise.all([
    service.getEndpoint(c.var.db, id),
    deliveries.listDeliveries(c.var.db, id, query),
    replays.recentReplays(c.var.db, id),
  ]);
  const view = (
    <WebhookDetailPage
      endpoint={endpoint}
      deliveries={items}
      replays={recent}
      replay={extra.replay ?? replayDefaults()}
      page={pageOf(query, total)}
      url={c.req.url}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
      secret={extra.secret}
      form={extra.form ?? emptyForm()}
      edit={extra.edit ?? emptyForm({ url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events })}
    />
  );
  return page(c, { title: 'Webhook endpoint', active: HERE, status }, view);
}

export const webhookRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), (c) => listPage(c, emptyForm({ events: ['*'] })))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const input = validate(CreateWebhookBody, { url: str(form, 'url'), events: all(form, 'events'), description: orNull(form, 'description') ?? undefined });
      // The secret is shown in this response only, never kept to show later.
      return listPage(c, emptyForm({ events: ['*'] }), 201, await service.createEndpoint(c.var.db, input, allowPrivateUrls(c)));
    } catch (error) {
      return listPage(c, failure(error, refill(form, ['events'])), failureStatus(error));
    }
  })
  .get('/:id', guard(routes.get), (c) => detailPage(c, c.req.param('id')))
  .post('/:id/active', guard(routes.update), async (c) => {
    const active = str(await readForm(c), 'active') === 'true';
    await service.updateEndpoint(c.var.db, c.req.param('id'), { active }, allowPrivateUrls(c));
    return redirectWith(c, `${HERE}/${c.req.param('id')}`, active ? 'Endpoint enabled.' : 'Endpoint disabled.');
  })
  .post('/:id/edit', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const input = validate(UpdateWebhookBody, { url: str(form, 'url'), events: all(form, 'events'), description: orNull(form, 'description') });
      await service.updateEndpoint(c.var.db, id, input, allowPrivateUrls(c));
      return redirectWith(c, `${HERE}/${id}`, 'Endpoint saved.');
    } catch (error) {
      return detailPage(c, id, { edit: failure(error, refill(form, ['events'])) }, failureStatus(error));
    }
  })
  .post('/:id/rotate', guard(rotateRoute), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const { secret } = await service.rotateSecret(c.var.db, id, validate(RotateSecretBody, { overlapHours: num(form, 'overlapHours') }));
      return detailPage(c, id, { secret });
    } catch (error) {
      return detailPage(c, id, { form: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/:id/test', guard(deliveryRoutes.testWebhook), async (c) => {
    await deliveries.sendTestPing(c.var.db, c.env, c.req.param('id'));
    return redirectWith(c, `${HERE}/${c.req.param('id')}`, 'Test ping queued; its delivery appears below.');
  })
  .post('/:id/replay', guard(replayRoute), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const input = validate(CreateReplayBody, { from: utcInstant(form, 'from'), to: utcInstant(form, 'to'), types: kindList(str(form, 'types')) });
      await replays.createReplay(c.var.db, c.env, id, input);
      return redirectWith(c, `${HERE}/${id}`, 'Replay queued; its progress shows under Replays.');
    } catch (error) {
      return detailPage(c, id, { replay: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/:id/deliveries/:deliveryId/redeliver', guard(deliveryRoutes.redeliver), async (c) => {
    const { id, deliveryId } = c.req.param();
    await deliveries.redeliver(c.var.db, c.env, id, deliveryId);
    return redirectWith(c, `${HERE}/${id}`, 'Delivery queued again.');
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deleteEndpoint(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Endpoint deleted.');
  });
