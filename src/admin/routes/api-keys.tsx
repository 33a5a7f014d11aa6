import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { apiKeyListQuery, apiKeyRoutes as routes, apiKeysService as service } from '../../modules/api-keys';
import { CreateApiKeyBody, UpdateApiKeyBody } from '../../modules/api-keys/schemas';
import { readEdgeSettings } from '../../modules/settings';
import { roleListQuery, listRoles } from '../../modules/roles';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { endOfDay, failure, failureStatus, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { BUYER_IP_PERMISSION } from '../../middleware/rate-limit';
import { firstPage, listQuery, pageOf } from '../list';
import { ApiKeysPage, type ApiKeysView } from '../pages/api-keys';

const HERE = '/admin/settings/api-keys';

async function show(c: Context<AppEnv>, form: FormState, status = 200, created?: ApiKeysView['created']) {
  const session = sessionOf(c);
  const { query } = listQuery(c, apiKeyListQuery);
  const [{ items, total }, roles] = await Promise.all([service.listApiKeys(c.var.db, query), listRoles(c.var.db, firstPage(roleListQuery))]);
  const view: ApiKeysView = {
    keys: items,
    page: pageOf(query, total),
    url: c.req.url,
    roles: roles.items.map((r) => r.name),
    form,
    csrf: session.csrfToken,
    canWrite: hasPermission(session.principal, 'api-keys:write'),
    created,
  };
  return page(c, { title: 'API keys', active: HERE, status }, <ApiKeysPage {...view} />);
}

/** The API's body for the kind of key the form asks for (pages/api-keys.tsx KEY_KINDS). */
function keyBody(form: Posted) {
  const common = { name: str(form, 'name'), expiresAt: endOfDay(form, 'expiresAt'), apiVersion: str(form, 'apiVersion') };
  switch (str(form, 'kind')) {
    case 'publishable':
      return { ...common, type: 'publishable', allowedOrigins: (str(form, 'allowedOrigins') ?? '').split(/[\s,]+/).filter(Boolean) };
    case 'storefront server':
      return { ...common, permissions: [BUYER_IP_PERMISSION] };
    default:
      return { ...common, role: str(form, 'role'), vendorId: str(form, 'vendorId') };
  }
}

export const apiKeyRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), async (c) => show(c, emptyForm({ role: 'admin', kind: 'secret', apiVersion: (await readEdgeSettings(c.var.db)).apiVersion })))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    const values = refill(form);
    try {
      const input = validate(CreateApiKeyBody, keyBody(form));
      const created = await service.createApiKeyFor(c.var.db, c.var.principal, input);
      // Shown in this response only (not redirected): the key must never be stored to show it later.
      return show(c, emptyForm({ role: values.role, kind: values.kind, apiVersion: values.apiVersion }), 201, created);
    } catch (error) {
      return show(c, failure(error, values), failureStatus(error));
    }
  })
  .post('/:id/version', guard(routes.update), async (c) => {
    const form = await readForm(c);
    try {
      const key = await service.updateApiKey(c.var.db, c.var.principal, c.req.param('id'), validate(UpdateApiKeyBody, { apiVersion: str(form, 'apiVersion') }));
      return redirectWith(c, HERE, `The key "${key.name}" now answers in version ${key.apiVersion} when its requests name none.`);
    } catch (error) {
      return show(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/:id/revoke', guard(routes.delete), async (c) => {
    await service.revokeApiKeyById(c.var.db, c.var.principal, c.req.param('id'));
    return redirectWith(c, HERE, 'The key is revoked: requests with it are refused from now on.');
  });
