import { workerFetch } from '../worker-fetch';
import { expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, db, uid } from '../helpers';

// The admin panel calls the same services with the signed-in user as the principal, through the
// same per-request database: its writes land in the audit log like the API's.

const ORIGIN = 'http://store.test';
const send = (path: string, cookie: string, form?: Record<string, string>) =>
  workerFetch(
    new Request(`${ORIGIN}${path}`, {
      method: form ? 'POST' : 'GET',
      headers: { Cookie: cookie, Origin: ORIGIN, ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: 'manual',
    }),
  );
const csrf = async (res: Response) => /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? '';
const cookie = (res: Response, name: string) =>
  res.headers
    .getAll('Set-Cookie')
    .find((c: string) => c.startsWith(`${name}=`))
    ?.split(';')[0] ?? '';

it('records a coupon created in the admin panel under the signed-in user', async () => {
  const email = `panel-${uid()}@example.com`;
  const user = await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin', vendorId: null });
  const form = await send('/admin/sign-in', '');
  const signedIn = await send('/admin/sign-in', cookie(form, 'admin_csrf'), { _csrf: await csrf(form), email, password: 'correct horse battery', next: '/admin' });
  const session = cookie(signedIn, 'admin_session');
  expect(session).not.toBe('');

  const code = `PANEL-${uid()}`.toUpperCase();
  const created = await send('/admin/coupons', session, { _csrf: await csrf(await send('/admin/coupons', session)), code, type: 'percentage', value: '10' });
  expect(created.status).toBe(303);
  await created.text();

  const log = await api(`/api/audit-log?actor=${user.id}&resource=coupon`, { key: await adminKey() });
  expect(log.body.data).toEqual([
    expect.objectContaining({
      action: 'create',
      actor: { kind: 'user', id: user.id, label: email, role: 'admin' },
      method: 'POST',
      path: '/admin/coupons',
      changes: expect.objectContaining({ code: { after: code } }),
    }),
  ]);
});
