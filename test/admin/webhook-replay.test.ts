import { expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

// The webhook page's replay form and replay list: the guard, body and service of POST /api/webhooks/{id}/replay.

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function staff(roleId: string) {
  const email = `${roleId}-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId });
  return (await signIn(email, 'correct horse battery')).session;
}

async function endpoint() {
  const res = await api('/api/webhooks', {
    method: 'POST',
    key: await adminKey(),
    json: { url: `https://hooks.example.com/${uid()}`, events: ['order.placed', 'product.created'] },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; url: string };
}

/** A datetime-local value (UTC minutes) `hours` back. */
const local = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString().slice(0, 16);

it('queues a replay of the window and kinds typed in, and lists it with its counts', async () => {
  const hook = await endpoint();
  const at = new Date(Date.now() - 2 * 3_600_000).toISOString();
  await db()
    .insert(events)
    .values({ id: newId(ID_PREFIX.event, Date.parse(at)), type: 'order.placed', data: {}, createdAt: at, publishedAt: at });
  const session = await staff('admin');
  const page = await get(`/admin/webhooks/${hook.id}`, session);
  expect(page.html).toContain(`action="/admin/webhooks/${hook.id}/replay"`);
  expect(page.html).toContain('No replays yet.');

  const from = local(3);
  const sent = await post(`/admin/webhooks/${hook.id}/replay`, { _csrf: csrfIn(page.html), from, to: local(1), types: 'order.*' }, session);
  expect(sent.res.status).toBe(303);
  const listed = await api(`/api/webhooks/${hook.id}/replays`, { key: await adminKey() });
  expect(listed.body.data).toHaveLength(1);
  const replay = listed.body.data[0];
  expect(replay).toMatchObject({ types: ['order.*'], eventTypes: ['order.placed'], from: `${from}:00.000Z` });

  await expect
    .poll(async () => (await api(`/api/webhooks/${hook.id}/replays/${replay.id}`, { key: await adminKey() })).body.data.status, { timeout: 20_000, interval: 200 })
    .toBe('completed');
  const after = await get(`/admin/webhooks/${hook.id}`, session);
  const start = after.html.indexOf(replay.id);
  const row = after.html.slice(start, after.html.indexOf('</tr>', start));
  expect(row).toContain('completed');
  // Matched, queued, skipped.
  expect(row).toContain('<td class="num">1</td><td class="num">1</td><td class="num">0</td>');
});

it('shows a bad window next to its field, keeping what was typed, and queues nothing', async () => {
  const hook = await endpoint();
  const session = await staff('admin');
  const page = await get(`/admin/webhooks/${hook.id}`, session);
  const [from, to] = [local(1), local(2)];
  const bad = await post(`/admin/webhooks/${hook.id}/replay`, { _csrf: csrfIn(page.html), from, to, types: 'order.*' }, session);
  expect(bad.res.status).toBe(422);
  expect(bad.html).toMatch(/id="f-to-error">[^<]*after from/);
  expect(bad.html).toContain(`value="${from}"`);
  expect(bad.html).toContain('value="order.*"');
  expect((await api(`/api/webhooks/${hook.id}/replays`, { key: await adminKey() })).body.data).toEqual([]);
});

it('offers a reader the replays but no replay form, and refuses its post', async () => {
  const hook = await endpoint();
  const role = await createRole(db(), ROOT, { name: `hooks-reader-${uid()}`, permissions: ['webhooks:read'] });
  const session = await staff(role.id);
  const page = await get(`/admin/webhooks/${hook.id}`, session);
  expect(page.res.status).toBe(200);
  expect(page.html).toContain('No replays yet.');
  expect(page.html).not.toContain(`/admin/webhooks/${hook.id}/replay"`);
  const refused = await post(`/admin/webhooks/${hook.id}/replay`, { _csrf: csrfIn(page.html), from: local(3), to: local(1), types: '' }, session);
  expect(refused.res.status).toBe(403);
});
