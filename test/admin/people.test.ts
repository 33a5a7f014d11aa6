import { describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { createVendor } from '../../src/modules/vendors/vendors.service';
import { db, uid } from '../helpers';
import { get, signIn } from './panel-client';
import { follow, navLinks, PASSWORD, permissionBox, postForm, role, signedIn } from './people-client';

describe('admin panel people: who sees what', () => {
  it('shows a user of a narrow role only its areas, and refuses roles and staff users, read or written', async () => {
    const narrow = await role(['products:read', 'orders:read']);
    const user = await signedIn(narrow.id);
    const dashboard = await get('/admin', user.session);
    // Returns, price lists and gift cards have permissions of their own: orders:read and products:read reach none of them.
    expect(navLinks(dashboard.html)).toEqual(['/admin', '/admin/orders', '/admin/shipments', '/admin/products']);

    for (const path of ['/admin/roles', '/admin/roles/new', `/admin/roles/${narrow.id}`, '/admin/users', '/admin/users/new']) {
      const { res, html } = await get(path, user.session);
      expect(res.status, path).toBe(403);
      expect(html).toContain('Not allowed');
    }
    const posts: [string, [string, string][]][] = [
      [
        '/admin/roles/new',
        [
          ['name', `sneaky-${uid()}`],
          ['permissionsShown', '1'],
          ['permissions', '*'],
        ],
      ],
      [
        `/admin/roles/${narrow.id}`,
        [
          ['permissionsShown', '1'],
          ['permissions', '*'],
        ],
      ],
      [`/admin/roles/${narrow.id}/delete`, []],
      [
        '/admin/users/new',
        [
          ['name', 'Sneaky'],
          ['email', `sneaky-${uid()}@example.com`],
          ['password', PASSWORD],
          ['role', 'admin'],
        ],
      ],
      [`/admin/users/${user.id}/role`, [['role', 'admin']]],
    ];
    for (const [path, entries] of posts) {
      const { res } = await postForm(path, [['_csrf', user.csrf], ...entries], user.session);
      expect(res.status, path).toBe(403);
    }
    // Its own record it may read, as GET /api/users/{id} allows; but not change.
    const own = await get(`/admin/users/${user.id}`, user.session);
    expect(own.res.status).toBe(200);
    expect(own.html).not.toContain(`action="/admin/users/${user.id}/role"`);
  });

  it('lets a user with users:read but not roles:read see staff and not roles; a vendor-scoped one sees neither list', async () => {
    const reader = await signedIn((await role(['users:read'])).id);
    expect((await get('/admin/users', reader.session)).res.status).toBe(200);
    const nav = navLinks((await get('/admin', reader.session)).html);
    expect(nav).toContain('/admin/users');
    expect(nav).not.toContain('/admin/roles');
    expect((await get('/admin/users/new', reader.session)).res.status).toBe(403);

    // As GET /api/users: a user acting for a vendor reads only its own record.
    const shop = await createVendor(db(), { name: `Shop ${uid()}` });
    const scoped = await signedIn((await role(['users:read'])).id, shop.id);
    expect((await get('/admin/users', scoped.session)).res.status).toBe(403);
    expect((await get(`/admin/users/${reader.id}`, scoped.session)).res.status).toBe(404);
    expect((await get(`/admin/users/${scoped.id}`, scoped.session)).res.status).toBe(200);
  });
});

describe('admin panel roles', () => {
  it('creates a role from the permission grid, with the API validation next to the fields', async () => {
    const admin = await signedIn('admin');
    const form = await get('/admin/roles/new', admin.session);
    expect(form.res.status).toBe(200);
    // An admin holds everything: nothing in the grid is disabled.
    for (const p of ['*', 'products:read', 'orders:write', 'audit-log:*']) expect(permissionBox(form.html, p)).not.toMatch(/disabled/);

    const blank = await postForm(
      '/admin/roles/new',
      [
        ['_csrf', admin.csrf],
        ['name', ''],
        ['permissionsShown', '1'],
        ['permissions', 'products:read'],
      ],
      admin.session,
    );
    expect(blank.res.status).toBe(422);
    expect(blank.html).toMatch(/id="f-name-error">/);
    expect(permissionBox(blank.html, 'products:read')).toMatch(/checked/);

    const bad = await postForm(
      '/admin/roles/new',
      [
        ['_csrf', admin.csrf],
        ['name', `bad-${uid()}`],
        ['permissions', 'products:fly'],
      ],
      admin.session,
    );
    expect(bad.res.status).toBe(422);
    expect(bad.html).toMatch(/id="f-permissions-error">[^<]*unknown action/);

    const name = `editors-${uid()}`;
    const created = await postForm(
      '/admin/roles/new',
      [
        ['_csrf', admin.csrf],
        ['name', name],
        ['description', 'Edits the catalogue'],
        ['permissionsShown', '1'],
        ['permissions', 'products:*'],
        ['permissions', 'orders:read'],
      ],
      admin.session,
    );
    expect(created.res.status).toBe(303);
    const location = created.res.headers.get('Location')!;
    expect(location).toMatch(/^\/admin\/roles\/role_/);
    const edit = await follow(created.res, admin.session);
    expect(edit.html).toContain(`Role ${name} created.`);
    expect(permissionBox(edit.html, 'products:*')).toMatch(/checked/);
    expect(permissionBox(edit.html, 'orders:read')).toMatch(/checked/);
    expect(permissionBox(edit.html, 'orders:write')).not.toMatch(/checked/);

    const duplicate = await postForm(
      '/admin/roles/new',
      [
        ['_csrf', admin.csrf],
        ['name', name],
        ['permissionsShown', '1'],
      ],
      admin.session,
    );
    expect(duplicate.res.status).toBe(409);
    expect(duplicate.html).toMatch(/id="f-name-error">/);

    const list = await get(`/admin/roles?q=${name}`, admin.session);
    expect(list.html).toContain(name);
    expect(list.html).toContain('Edits the catalogue');
  });

  it('edits a role, counts its users, and refuses to delete it while held (409 as a flash error)', async () => {
    const admin = await signedIn('admin');
    const held = await role(['products:read']);
    const saved = await postForm(
      `/admin/roles/${held.id}`,
      [
        ['_csrf', admin.csrf],
        ['name', held.name],
        ['description', 'Reads'],
        ['permissionsShown', '1'],
        ['permissions', 'products:read'],
        ['permissions', 'coupons:read'],
      ],
      admin.session,
    );
    expect(saved.res.status).toBe(303);
    const after = await follow(saved.res, admin.session);
    expect(after.html).toContain('saved.');
    expect(permissionBox(after.html, 'coupons:read')).toMatch(/checked/);

    const unnamed = await postForm(
      `/admin/roles/${held.id}`,
      [
        ['_csrf', admin.csrf],
        ['name', ' '],
        ['permissionsShown', '1'],
        ['permissions', 'products:read'],
      ],
      admin.session,
    );
    expect(unnamed.res.status).toBe(422);
    expect(unnamed.html).toMatch(/id="f-name-error">/);

    // Unticking everything leaves a role with no permissions (the grid sends an empty list).
    const emptied = await postForm(
      `/admin/roles/${held.id}`,
      [
        ['_csrf', admin.csrf],
        ['name', held.name],
        ['permissionsShown', '1'],
      ],
      admin.session,
    );
    expect(emptied.res.status).toBe(303);
    expect(permissionBox((await follow(emptied.res, admin.session)).html, 'products:read')).not.toMatch(/checked/);

    await createUser(db(), { email: `holder-${uid()}@example.com`, password: PASSWORD, roleId: held.id });
    const list = await get(`/admin/roles?q=${held.name}`, admin.session);
    expect(list.html).toMatch(new RegExp(`${held.name}[\\s\\S]*?<td class="num">1</td>`));
    expect(list.html).not.toContain(`action="/admin/roles/${held.id}/delete"`);
    const refused = await postForm(`/admin/roles/${held.id}/delete`, [['_csrf', admin.csrf]], admin.session);
    expect(refused.res.status).toBe(303);
    const flash = await follow(refused.res, admin.session);
    expect(flash.html).toMatch(/class="flash error"[^>]*>[^<]*still held by 1 user/);

    const unused = await role(['products:read']);
    expect((await get(`/admin/roles?q=${unused.name}`, admin.session)).html).toContain(`action="/admin/roles/${unused.id}/delete"`);
    const deleted = await postForm(`/admin/roles/${unused.id}/delete`, [['_csrf', admin.csrf]], admin.session);
    expect((await follow(deleted.res, admin.session)).html).toContain('Role deleted.');
    expect((await get(`/admin/roles/${unused.id}`, admin.session)).res.status).toBe(404);
  });

  it("shows a built-in role's name and permissions read-only, and the API's 409 for a forged change", async () => {
    const admin = await signedIn('admin');
    const page = await get('/admin/roles/vendor', admin.session);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('built-in role');
    expect(page.html).not.toContain('name="name"');
    expect(permissionBox(page.html, 'products:read')).toMatch(/checked/);
    expect(permissionBox(page.html, 'products:read')).toMatch(/disabled/);
    expect(page.html).not.toContain('name="permissionsShown"');
    expect(page.html).not.toContain(`action="/admin/roles/vendor/delete"`);

    const forged = await postForm(
      '/admin/roles/vendor',
      [
        ['_csrf', admin.csrf],
        ['permissionsShown', '1'],
        ['permissions', '*'],
      ],
      admin.session,
    );
    expect(forged.res.status).toBe(409);
    expect(forged.html).toMatch(/built-in role; its permissions cannot be changed/);
    const deleted = await postForm('/admin/roles/vendor/delete', [['_csrf', admin.csrf]], admin.session);
    expect((await follow(deleted.res, admin.session)).html).toMatch(/class="flash error"[^>]*>[^<]*built-in role and cannot be deleted/);
  });

  it('never offers a permission the signed-in user lacks: the box is disabled and a forged grant is 403', async () => {
    const editorRole = await role(['roles:read', 'roles:write', 'products:*', 'orders:read']);
    const editor = await signedIn(editorRole.id);
    const form = await get('/admin/roles/new', editor.session);
    expect(form.res.status).toBe(200);
    for (const p of ['orders:write', 'orders:*', '*', 'users:read']) expect(permissionBox(form.html, p), p).toMatch(/disabled/);
    for (const p of ['orders:read', 'products:write', 'products:*', 'roles:write']) expect(permissionBox(form.html, p), p).not.toMatch(/disabled/);

    const name = `orders-writer-${uid()}`;
    const forged = await postForm(
      '/admin/roles/new',
      [
        ['_csrf', editor.csrf],
        ['name', name],
        ['permissionsShown', '1'],
        ['permissions', 'products:read'],
        ['permissions', 'orders:write'],
      ],
      editor.session,
    );
    expect(forged.res.status).toBe(403);
    expect(forged.html).toMatch(/role="alert"[\s\S]*lacks orders:write/);
    expect(forged.html).toContain(`value="${name}"`);

    const fine = await postForm(
      '/admin/roles/new',
      [
        ['_csrf', editor.csrf],
        ['name', name],
        ['permissionsShown', '1'],
        ['permissions', 'products:read'],
        ['permissions', 'orders:read'],
      ],
      editor.session,
    );
    expect(fine.res.status).toBe(303);

    // A role holding more than the editor (admin) is shown read-only; its own role's grid is locked.
    const adminRole = await get('/admin/roles/admin', editor.session);
    expect(adminRole.html).toMatch(/You cannot change or delete this role: your account lacks/);
    expect(adminRole.html).not.toContain('type="submit">Save role');
    const own = await get(`/admin/roles/${editorRole.id}`, editor.session);
    expect(own.html).toContain('This is your own role');
    expect(own.html).not.toContain('name="permissionsShown"');
    const widened = await postForm(
      `/admin/roles/${editorRole.id}`,
      [
        ['_csrf', editor.csrf],
        ['permissionsShown', '1'],
        ['permissions', 'roles:read'],
      ],
      editor.session,
    );
    expect(widened.res.status).toBe(403);
    expect(widened.html).toContain('its own role');
  });
});

describe('admin panel staff users', () => {
  it('creates a staff user, with the API validation next to the fields and the password never shown again', async () => {
    const admin = await signedIn('admin');
    const bad = await postForm(
      '/admin/users/new',
      [
        ['_csrf', admin.csrf],
        ['name', 'Ada'],
        ['email', 'not-an-email'],
        ['password', 'short'],
        ['role', 'admin'],
      ],
      admin.session,
    );
    expect(bad.res.status).toBe(422);
    expect(bad.html).toMatch(/id="f-email-error">/);
    expect(bad.html).toMatch(/id="f-password-error">[^<]*at least 8/);
    expect(bad.html).toContain('value="Ada"');
    expect(bad.html).not.toContain('value="short"');

    const team = await role(['products:read']);
    const email = `ada-${uid()}@example.com`;
    const created = await postForm(
      '/admin/users/new',
      [
        ['_csrf', admin.csrf],
        ['name', 'Ada'],
        ['email', email],
        ['password', PASSWORD],
        ['role', team.id],
      ],
      admin.session,
    );
    expect(created.res.status).toBe(303);
    expect(created.res.headers.get('Location')).toMatch(/^\/admin\/users\/user_/);
    const page = await follow(created.res, admin.session);
    expect(page.html).toContain(`User ${email} created.`);
    expect((await signIn(email, PASSWORD)).res.status).toBe(303);

    const taken = await postForm(
      '/admin/users/new',
      [
        ['_csrf', admin.csrf],
        ['name', 'Ada'],
        ['email', email],
        ['password', PASSWORD],
        ['role', team.id],
      ],
      admin.session,
    );
    expect(taken.res.status).toBe(409);
    expect(taken.html).toMatch(/id="f-email-error">/);

    const vendorless = await postForm(
      '/admin/users/new',
      [
        ['_csrf', admin.csrf],
        ['name', 'V'],
        ['email', `v-${uid()}@example.com`],
        ['password', PASSWORD],
        ['role', 'vendor'],
        ['vendorId', ''],
      ],
      admin.session,
    );
    expect(vendorless.res.status).toBe(422);
    expect(vendorless.html).toMatch(/id="f-vendorId-error">[^<]*required for role vendor/);
  });

  it('lists staff users filtered by role and status', async () => {
    const admin = await signedIn('admin');
    const team = await role(['orders:read']);
    const active = await createUser(db(), { email: `act-${uid()}@example.com`, password: PASSWORD, roleId: team.id });
    const disabled = await createUser(db(), { email: `dis-${uid()}@example.com`, password: PASSWORD, roleId: team.id, status: 'disabled' });
    const byRole = await get(`/admin/users?role=${team.id}`, admin.session);
    expect(byRole.res.status).toBe(200);
    expect(byRole.html).toContain(active.email);
    expect(byRole.html).toContain(disabled.email);
    expect(byRole.html).not.toContain(`<td>${admin.email}</td>`);
    const onlyDisabled = await get(`/admin/users?role=${team.id}&status=disabled`, admin.session);
    expect(onlyDisabled.html).toContain(disabled.email);
    expect(onlyDisabled.html).not.toContain(active.email);
    expect((await get('/admin/users?status=gone', admin.session)).res.status).toBe(400);
  });

  it('offers only the roles the signed-in user covers, and shows the 403 of a forged grant', async () => {
    const managerRole = await role(['users:read', 'users:write', 'products:*', 'orders:read', 'events:read']);
    const narrow = await role(['products:read', 'orders:read']);
    const wide = await role(['orders:write']);
    const manager = await signedIn(managerRole.id);
    const form = await get('/admin/users/new', manager.session);
    expect(form.res.status).toBe(200);
    expect(form.html).toContain(`<option value="${narrow.id}"`);
    expect(form.html).toContain(`<option value="vendor"`);
    expect(form.html).not.toContain(`<option value="${wide.id}"`);
    expect(form.html).not.toContain('<option value="admin"');

    const forged = await postForm(
      '/admin/users/new',
      [
        ['_csrf', manager.csrf],
        ['name', 'X'],
        ['email', `x-${uid()}@example.com`],
        ['password', PASSWORD],
        ['role', 'admin'],
      ],
      manager.session,
    );
    expect(forged.res.status).toBe(403);
    expect(forged.html).toContain('cannot grant role &#39;admin&#39;: it lacks *');

    // An admin is beyond the manager: shown, but with nothing to change.
    const admin = await createUser(db(), { email: `boss-${uid()}@example.com`, password: PASSWORD, roleId: 'admin' });
    const boss = await get(`/admin/users/${admin.id}`, manager.session);
    expect(boss.res.status).toBe(200);
    expect(boss.html).toContain('You cannot change this user: your account lacks');
    expect(boss.html).not.toContain(`action="/admin/users/${admin.id}/status"`);
    const disable = await postForm(
      `/admin/users/${admin.id}/status`,
      [
        ['_csrf', manager.csrf],
        ['status', 'disabled'],
      ],
      manager.session,
    );
    expect((await follow(disable.res, manager.session)).html).toMatch(/class="flash error"[^>]*>[^<]*cannot change user/);
  });

  it('changes role, disables and enables, resets the password and deletes; nobody changes its own role', async () => {
    const admin = await signedIn('admin');
    const [from, to] = await Promise.all([role(['products:read']), role(['orders:read'])]);
    const target = await createUser(db(), { email: `t-${uid()}@example.com`, password: PASSWORD, roleId: from.id });
    const base = `/admin/users/${target.id}`;

    const page = await get(base, admin.session);
    expect(page.html).toContain(`action="${base}/role"`);
    const moved = await postForm(
      `${base}/role`,
      [
        ['_csrf', admin.csrf],
        ['role', to.id],
        ['vendorId', ''],
      ],
      admin.session,
    );
    expect(moved.res.status).toBe(303);
    expect((await follow(moved.res, admin.session)).html).toContain(`now has role ${to.id}`);
    expect((await get(`/admin/users?role=${to.id}`, admin.session)).html).toContain(target.email);

    const unknown = await postForm(
      `${base}/role`,
      [
        ['_csrf', admin.csrf],
        ['role', 'no-such-role'],
      ],
      admin.session,
    );
    expect(unknown.res.status).toBe(422);
    expect(unknown.html).toMatch(/id="f-role-error">[^<]*no role/);

    const off = await postForm(
      `${base}/status`,
      [
        ['_csrf', admin.csrf],
        ['status', 'disabled'],
      ],
      admin.session,
    );
    expect((await follow(off.res, admin.session)).html).toContain('is disabled.');
    expect((await signIn(target.email, PASSWORD)).res.status).not.toBe(303);
    const on = await postForm(
      `${base}/status`,
      [
        ['_csrf', admin.csrf],
        ['status', 'active'],
      ],
      admin.session,
    );
    expect((await follow(on.res, admin.session)).html).toContain('is enabled.');

    const short = await postForm(
      `${base}/password`,
      [
        ['_csrf', admin.csrf],
        ['password', 'short'],
      ],
      admin.session,
    );
    expect(short.res.status).toBe(422);
    expect(short.html).toMatch(/id="f-password-error">/);
    const reset = await postForm(
      `${base}/password`,
      [
        ['_csrf', admin.csrf],
        ['password', 'a brand new password'],
      ],
      admin.session,
    );
    expect((await follow(reset.res, admin.session)).html).toContain('reset');
    expect((await signIn(target.email, 'a brand new password')).res.status).toBe(303);

    const details = await postForm(
      base,
      [
        ['_csrf', admin.csrf],
        ['name', 'Renamed'],
        ['phone', 'x'],
      ],
      admin.session,
    );
    expect(details.res.status).toBe(422);
    expect(details.html).toMatch(/id="f-phone-error">/);
    const named = await postForm(
      base,
      [
        ['_csrf', admin.csrf],
        ['name', 'Renamed'],
        ['phone', ''],
      ],
      admin.session,
    );
    expect((await follow(named.res, admin.session)).html).toContain('<h1>Renamed</h1>');

    // Oneself: no role form, no disable or delete; forged, the API's refusals.
    const self = `/admin/users/${admin.id}`;
    const own = await get(self, admin.session);
    expect(own.html).not.toContain(`action="${self}/role"`);
    expect(own.html).not.toContain(`action="${self}/delete"`);
    const promote = await postForm(
      `${self}/role`,
      [
        ['_csrf', admin.csrf],
        ['role', to.id],
      ],
      admin.session,
    );
    expect(promote.res.status).toBe(403);
    expect(promote.html).toContain('cannot change its own role');
    const selfOff = await postForm(
      `${self}/status`,
      [
        ['_csrf', admin.csrf],
        ['status', 'disabled'],
      ],
      admin.session,
    );
    expect((await follow(selfOff.res, admin.session)).html).toContain('cannot disable itself');

    const gone = await postForm(`${base}/delete`, [['_csrf', admin.csrf]], admin.session);
    expect(gone.res.headers.get('Location')).toBe('/admin/users');
    expect((await follow(gone.res, admin.session)).html).toContain('User deleted.');
    expect((await get(base, admin.session)).res.status).toBe(404);
  });
});
