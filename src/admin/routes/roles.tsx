import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { coverProblem, hasPermission, ownRole, uncovered } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { roleListQuery, roleRoutes as routes, rolesService as service } from '../../modules/roles';
import { CreateRoleBody, type Role, UpdateRoleBody } from '../../modules/roles/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { all, failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { RoleEditPage, RoleForm, type RoleAccess, RoleListPage, type RoleLocks } from '../pages/roles';

const HERE = '/admin/roles';
type C = Context<AppEnv>;

function access(c: C): RoleAccess {
  const principal = c.var.principal;
  const held = principal.kind === 'anonymous' ? [] : principal.permissions;
  return { canWrite: hasPermission(principal, 'roles:write'), offerable: (permission) => uncovered(held, [permission]).length === 0 };
}

/** What of this role the signed-in user may not change, and why (the roles service refuses the same). */
function locksFor(c: C, role: Role): RoleLocks {
  const principal = c.var.principal;
  if (!hasPermission(principal, 'roles:write')) return { all: "You can see this role but not change it: that needs the 'roles:write' permission." };
  const problem = coverProblem(principal, role);
  if (problem) return { all: `You cannot change or delete this role: ${problem.replace(/^it /, 'your account ')}.` };
  const locks: RoleLocks = {};
  if (role.builtIn) {
    const note = `'${role.name}' is a built-in role: its name and permissions cannot change; its description can.`;
    locks.name = note;
    locks.permissions = note;
  } else if (ownRole(principal) === role.id) {
    locks.permissions = 'This is your own role: you cannot change its permissions.';
  }
  return locks;
}

const roleValues = (role: Role): Record<string, unknown> => ({ name: role.name, description: role.description ?? '', permissions: role.permissions });

/** Errors of single entries (`permissions.3`) are shown under the permission grid. */
function roleFailure(error: unknown, values: Record<string, unknown>): FormState {
  const state = failure(error, values);
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(state.errors)) {
    const name = field.startsWith('permissions') ? 'permissions' : field;
    errors[name] = errors[name] ? `${errors[name]}; ${message}` : message;
  }
  return { ...state, errors };
}

/** The posted form's values to show again: the permissions as a list (none ticked is an empty one). */
function postedValues(form: Posted): Record<string, unknown> {
  const values = refill(form, ['permissions']);
  if (form.permissionsShown) values.permissions = all(form, 'permissions');
  return values;
}

async function newPage(c: C, form: FormState, status = 200) {
  const view = <RoleForm action={`${HERE}/new`} form={form} csrf={sessionOf(c).csrfToken} access={access(c)} creating />;
  return page(c, { title: 'New role', active: HERE, status }, view);
}

async function editPage(c: C, id: string, form?: FormState, status = 200) {
  const role = await service.getRole(c.var.db, id);
  const held = (await service.countRoleHolders(c.var.db, [role.id])).get(role.id) ?? 0;
  const locks = locksFor(c, role);
  const values = form ? { ...roleValues(role), ...form.values } : roleValues(role);
  const view = (
    <RoleEditPage
      role={role}
      users={held}
      form={{ ...(form ?? emptyForm()), values }}
      csrf={sessionOf(c).csrfToken}
      access={access(c)}
      locks={locks}
      canDelete={!locks.all && !role.builtIn && held === 0}
    />
  );
  return page(c, { title: `Role ${role.name}`, active: HERE, status }, view);
}

export const roleRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), async (c) => {
    const { query, values } = listQuery(c, roleListQuery);
    const { items, total } = await service.listRoles(c.var.db, query);
    const counts = await service.countRoleHolders(
      c.var.db,
      items.map((r) => r.id),
    );
    const rows = items.map((role) => ({ role, users: counts.get(role.id) ?? 0 }));
    const principal = c.var.principal;
    const view = (
      <RoleListPage
        rows={rows}
        page={pageOf(query, total)}
        url={c.req.url}
        filters={emptyForm(values)}
        csrf={sessionOf(c).csrfToken}
        access={access(c)}
        covers={(role) => coverProblem(principal, role) === undefined}
      />
    );
    return page(c, { title: 'Roles', active: HERE }, view);
  })
  .get('/new', guard(routes.create), (c) => newPage(c, emptyForm({ permissions: [] })))
  .post('/new', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const body = { name: str(form, 'name'), description: str(form, 'description'), permissions: all(form, 'permissions') };
      const role = await service.createRole(c.var.db, c.var.principal, validate(CreateRoleBody, body));
      return redirectWith(c, `${HERE}/${role.id}`, `Role ${role.name} created.`);
    } catch (error) {
      return newPage(c, roleFailure(error, postedValues(form)), failureStatus(error));
    }
  })
  .get('/:id', guard(routes.get), (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      // Only what the form showed as changeable is sent: a locked name or grid is left as it is.
      const body = {
        ...(form.name ? { name: str(form, 'name') ?? '' } : {}),
        ...(form.description ? { description: orNull(form, 'description') } : {}),
        ...(form.permissionsShown ? { permissions: all(form, 'permissions') } : {}),
      };
      const role = await service.updateRole(c.var.db, c.var.principal, id, validate(UpdateRoleBody, body));
      return redirectWith(c, `${HERE}/${role.id}`, `Role ${role.name} saved.`);
    } catch (error) {
      return editPage(c, id, roleFailure(error, postedValues(form)), failureStatus(error));
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    try {
      await service.deleteRole(c.var.db, c.var.principal, c.req.param('id'));
    } catch (error) {
      // Still held (409), built in (409) or not covered (403): the API's message, on the list.
      if (error instanceof ApiError && error.code !== 'NOT_FOUND') return redirectWith(c, HERE, error.message, 'error');
      throw error;
    }
    return redirectWith(c, HERE, 'Role deleted.');
  });
