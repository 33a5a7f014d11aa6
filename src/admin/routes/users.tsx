import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { coverProblem, hasPermission, vendorScope } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { roleListQuery, getRole, listRoles } from '../../modules/roles';
import { staffUserListQuery, userRoutes as routes, usersService as service } from '../../modules/users';
import { CreateStaffUserBody, UpdateStaffUserBody, type User } from '../../modules/users/schemas';
import { vendorListQuery, listVendors } from '../../modules/vendors';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { NewUserPage, type UserChoices, type UserEditForms, UserEditPage, UserListPage } from '../pages/users';

const HERE = '/admin/users';
type C = Context<AppEnv>;

/** As GET /api/users: a vendor user reads only its own record, never the list. */
const notVendor = guard({
  middleware: async (c, next) => {
    if (vendorScope(c.var.principal) !== null) throw ApiError.forbidden('A vendor user reads only its own record');
    return next();
  },
});

/** As GET /api/users/{id}: a user reads itself; others need users:read and no vendor scope (404 to a vendor user). */
const readable = guard({
  middleware: async (c, next) => {
    const principal = c.var.principal;
    const id = c.req.param('id');
    const self = principal.kind === 'user' && principal.id === id;
    if (!self && vendorScope(principal) !== null) throw ApiError.notFound('User', id);
    if (!self && !hasPermission(principal, 'users:read')) throw ApiError.forbidden("This credential lacks the 'users:read' permission");
    return next();
  },
});

/** The roles to filter by, the roles the signed-in user covers (the only ones offered), and vendors. */
async function choices(c: C): Promise<UserChoices> {
  const principal = c.var.principal;
  const roles = (await listRoles(c.var.db, firstPage(roleListQuery))).items.filter((r) => r.id !== 'customer');
  const scope = vendorScope(principal);
  const grantable = roles.filter((r) => coverProblem(principal, { permissions: r.permissions, vendorId: r.id === 'vendor' ? scope : null }) === undefined);
  const offersVendor = grantable.some((r) => r.id === 'vendor');
  const vendors = offersVendor && !scope ? (await listVendors(c.var.db, firstPage(vendorListQuery))).items : [];
  return {
    allRoles: roles.map((r) => [r.id, r.name]),
    grantable: grantable.map((r) => [r.id, r.name]),
    vendors: vendors.map((v) => [v.id, v.name]),
  };
}

/** A failed form is shown again without the password typed into it. */
const withoutPassword = (form: Posted) => {
  const values = refill(form);
  delete values.password;
  return values;
};

async function newPage(c: C, form: FormState, status = 200) {
  return page(c, { title: 'New staff user', active: HERE, status }, <NewUserPage form={form} csrf={sessionOf(c).csrfToken} choices={await choices(c)} />);
}

/** Why the signed-in user may not change this user (the users service's own checks), or undefined. */
async function writeProblem(c: C, user: User): Promise<string | undefined> {
  const principal = c.var.principal;
  if (!hasPermission(principal, 'users:write')) return "You can see this user but not change it: that needs the 'users:write' permission.";
  const role = await getRole(c.var.db, user.role);
  const problem = coverProblem(principal, { permissions: role.permissions, vendorId: user.vendorId });
  return problem ? `You cannot change this user: ${problem.replace(/^it /, 'your account ')}.` : undefined;
}

async function editPage(c: C, id: string, failed: Partial<UserEditForms> = {}, status = 200) {
  const user = service.toUser(await service.getStaffUserRow(c.var.db, id));
  const principal = c.var.principal;
  const why = await writeProblem(c, user);
  const forms: UserEditForms = {
    details: failed.details ?? emptyForm({ name: user.name ?? '', phone: user.phone ?? '' }),
    role: failed.role ?? emptyForm({ role: user.role, vendorId: user.vendorId ?? '' }),
    password: failed.password ?? emptyForm(),
  };
  const access = { canWrite: why === undefined, why, self: principal.kind === 'user' && principal.id === user.id };
  const view = <UserEditPage user={user} forms={forms} csrf={sessionOf(c).csrfToken} choices={await choices(c)} access={access} />;
  return page(c, { title: user.name ?? user.email, active: HERE, status }, view);
}

/** One PATCH of the API from one of the edit page's forms; a failure is shown in that form. */
async function update(c: C, which: keyof UserEditForms, body: (form: Posted) => Record<string, unknown>, done: (user: User) => string) {
  const id = c.req.param('id')!;
  const form = await readForm(c);
  try {
    const row = await service.updateStaffUser(c.var.db, c.var.principal, id, validate(UpdateStaffUserBody, body(form)));
    const user = service.toUser(row);
    return redirectWith(c, `${HERE}/${user.id}`, done(user));
  } catch (error) {
    return editPage(c, id, { [which]: failure(error, withoutPassword(form)) }, failureStatus(error));
  }
}

export const userRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), notVendor, async (c) => {
    const { query, values } = listQuery(c, staffUserListQuery);
    const [{ items, total }, options] = await Promise.all([service.listStaffUsers(c.var.db, query), choices(c)]);
    const view = (
      <UserListPage
        users={items}
        page={pageOf(query, total)}
        url={c.req.url}
        filters={emptyForm(values)}
        choices={options}
        canWrite={hasPermission(c.var.principal, 'users:write')}
      />
    );
    return page(c, { title: 'Staff users', active: HERE }, view);
  })
  .get('/new', guard(routes.create), (c) => newPage(c, emptyForm()))
  .post('/new', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const body = { name: str(form, 'name'), email: str(form, 'email'), password: form.password?.[0] ?? '', role: str(form, 'role'), vendorId: str(form, 'vendorId') };
      const row = await service.createStaffUser(c.var.db, c.var.principal, validate(CreateStaffUserBody, body));
      return redirectWith(c, `${HERE}/${row.id}`, `User ${row.email} created.`);
    } catch (error) {
      return newPage(c, failure(error, withoutPassword(form)), failureStatus(error));
    }
  })
  .get('/:id', readable, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), (c) =>
    update(
      c,
      'details',
      (form) => ({ name: orNull(form, 'name'), phone: orNull(form, 'phone') }),
      () => 'Details saved.',
    ),
  )
  .post('/:id/role', guard(routes.update), (c) =>
    update(
      c,
      'role',
      (form) => ({ role: str(form, 'role'), ...(form.vendorId ? { vendorId: orNull(form, 'vendorId') } : {}) }),
      (user) => `${user.email} now has role ${user.role}.`,
    ),
  )
  .post('/:id/password', guard(routes.update), (c) =>
    // Passwords are not trimmed: what was typed is the password (blank is refused by its length).
    update(
      c,
      'password',
      (form) => ({ password: form.password?.[0] ?? '' }),
      (user) => `Password of ${user.email} reset; it is signed out everywhere.`,
    ),
  )
  .post('/:id/status', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const status = str(await readForm(c), 'status');
    try {
      const user = service.toUser(await service.updateStaffUser(c.var.db, c.var.principal, id, validate(UpdateStaffUserBody, { status })));
      return redirectWith(c, `${HERE}/${user.id}`, `${user.email} is ${user.status === 'active' ? 'enabled' : 'disabled'}.`);
    } catch (error) {
      // The last active admin, oneself (409), a user not covered (403): the API's message.
      if (error instanceof ApiError && error.code !== 'NOT_FOUND') return redirectWith(c, `${HERE}/${id}`, error.message, 'error');
      throw error;
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    const id = c.req.param('id');
    try {
      await service.deleteStaffUser(c.var.db, c.var.principal, id);
    } catch (error) {
      if (error instanceof ApiError && error.code !== 'NOT_FOUND') return redirectWith(c, `${HERE}/${id}`, error.message, 'error');
      throw error;
    }
    return redirectWith(c, HERE, 'User deleted.');
  });
