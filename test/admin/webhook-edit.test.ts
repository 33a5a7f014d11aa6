import { expect, it } from 'vitest';
import type { Principal } from '../../src/lib/access';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

// Editing a webhook endpoint's URL, events and description: the guard, body and service of PATCH /api/webhooks/{id}.

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function staff(roleId: string) {
  const email = `${roleId}-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId });
  return (await signIn(email, 'correct horse battery')).session;
}

async function endpoint() {
  const res = await api('/api/webhooks', { method: 'POST', key: await adminKey(), json: { url: `https://hooks.example.com/${uid()}`, events: ['*'] } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; url: string };
}

it('saves a new URL, events and description, and shows a bad URL next to its field', async () => {
  const hook = await endpoint();
  const session = await staff('admin');
  const page = await get(`/admin/webhooks/${hook.id}`, session);
  expect(page.html).toContain(`action="/admin/webhooks/${hook.id}/edit"`);
  expect(page.html).toContain(`value="${hook.url}"`);
  const token = csrfIn(page.html);

  const url = `https://hooks.example.com/moved-${uid()}`;
  const saved = await post(`/admin/webhooks/${hook.id}/edit`, { _csrf: token, url, events: 'order.placed', description: 'Orders only' }, session);
  expect(saved.res.status).toBe(303);
  const read = await api(`/api/webhooks/${hook.id}`, { key: await adminKey() });
  expect(read.body.data).toMatchObject({ url, events: ['order.placed'], description: 'Orders only' });

  const bad = await post(`/admin/webhooks/${hook.id}/edit`, { _csrf: token, url: 'not a url', events: 'order.placed', description: '' }, session);
  expect(bad.res.status).toBe(422);
  expect(bad.html).toMatch(/id="f-url-error">[^<]+</);
  expect(bad.html).toContain('value="not a url"');
  expect((await api(`/api/webhooks/${hook.id}`, { key: await adminKey() })).body.data.url).toBe(url);
});

it('offers no edit form to a reader, and refuses its post', async () => {
  const hook = await endpoint();
  const role = await createRole(db(), ROOT, { name: `hooks-reader-${uid()}`, permissions: ['webhooks:read'] });
  const session = await staff(role.id);
  const page = await get(`/admin/webhooks/${hook.id}`, session);
  expect(page.res.status).toBe(200);
  expect(page.html).not.toContain(`/admin/webhooks/${hook.id}/edit`);
  const refused = await post(`/admin/webhooks/${hook.id}/edit`, { _csrf: csrfIn(page.html), url: 'https://hooks.example.com/x', events: '*', description: '' }, session);
  expect(refused.res.status).toBe(403);
});
