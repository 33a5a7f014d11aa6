import { expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { api, db, uid } from '../helpers';
import { cookieIn, csrfIn, get, pair, post, signIn } from './panel-client';

// The signed-in user's own password, changed in the panel with the guard and service of POST /api/auth/password.

it('changes the password: the old one and other sessions stop working, this browser stays signed in', async () => {
  const email = `staff-${uid()}@example.com`;
  await createUser(db(), { email, password: 'old password here', roleId: 'admin' });
  const { session } = await signIn(email, 'old password here');
  const other = (await signIn(email, 'old password here', '192.0.2.44')).session;
  const account = await get('/admin/account', session);
  expect(account.res.status).toBe(200);
  expect(account.html).toContain(email);
  const token = csrfIn(account.html);

  const wrong = await post('/admin/account/password', { _csrf: token, currentPassword: 'not it', newPassword: 'new password here' }, session);
  expect(wrong.res.status).toBe(422);
  expect(wrong.html).toMatch(/id="f-currentPassword-error">[^<]+</);
  expect(wrong.html).not.toContain('not it');

  const short = await post('/admin/account/password', { _csrf: token, currentPassword: 'old password here', newPassword: 'short' }, session);
  expect(short.res.status).toBe(422);
  expect(short.html).toMatch(/id="f-newPassword-error">[^<]+</);

  const changed = await post('/admin/account/password', { _csrf: token, currentPassword: 'old password here', newPassword: 'new password here' }, session);
  expect(changed.res.status).toBe(303);
  const renewed = pair(cookieIn(changed.res, 'admin_session'));
  expect(renewed).not.toBe('');
  expect((await get('/admin/account', renewed)).res.status).toBe(200);
  // The other session, and the old password, are done.
  expect((await get('/admin/account', other)).res.status).toBe(303);
  const oldLogin = await api('/api/auth/login', { method: 'POST', json: { email, password: 'old password here' } });
  expect(oldLogin.status).toBe(401);
  const newLogin = await api('/api/auth/login', { method: 'POST', json: { email, password: 'new password here' } });
  expect(newLogin.status).toBe(200);
});
