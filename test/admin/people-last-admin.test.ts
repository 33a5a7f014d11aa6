import { describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { db, uid } from '../helpers';
import { get } from './panel-client';
import { follow, PASSWORD, postForm, role, signedIn } from './people-client';

// Its own file: storage is shared by the tests of one file, and here the store has exactly one admin user.
describe('admin panel staff users: the last active admin', () => {
  it('cannot be disabled, demoted or deleted: the API refusal is shown', async () => {
    const everything = await role(['*'], `everything-${uid()}`);
    const actor = await signedIn(everything.id);
    const sole = await createUser(db(), { email: `sole-${uid()}@example.com`, password: PASSWORD, roleId: 'admin' });
    const base = `/admin/users/${sole.id}`;
    const narrow = await role(['orders:read']);

    const off = await postForm(
      `${base}/status`,
      [
        ['_csrf', actor.csrf],
        ['status', 'disabled'],
      ],
      actor.session,
    );
    expect(off.res.status).toBe(303);
    expect((await follow(off.res, actor.session)).html).toMatch(/class="flash error"[^>]*>Cannot disable the last active admin user/);

    const demote = await postForm(
      `${base}/role`,
      [
        ['_csrf', actor.csrf],
        ['role', narrow.id],
        ['vendorId', ''],
      ],
      actor.session,
    );
    expect(demote.res.status).toBe(409);
    expect(demote.html).toMatch(/role="alert"><p>Cannot demote the last active admin user/);

    const gone = await postForm(`${base}/delete`, [['_csrf', actor.csrf]], actor.session);
    expect((await follow(gone.res, actor.session)).html).toMatch(/class="flash error"[^>]*>Cannot delete the last active admin user/);
    const still = await get(base, actor.session);
    expect(still.res.status).toBe(200);
    expect(still.html).toContain('b-active');

    // With a second admin, the first may go.
    await createUser(db(), { email: `second-${uid()}@example.com`, password: PASSWORD, roleId: 'admin' });
    const demoted = await postForm(
      `${base}/role`,
      [
        ['_csrf', actor.csrf],
        ['role', narrow.id],
        ['vendorId', ''],
      ],
      actor.session,
    );
    expect(demoted.res.status).toBe(303);
  });
});
