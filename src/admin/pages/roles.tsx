import type { Pagination } from '../../lib/envelope';
import { PERMISSION_ACTIONS, PERMISSION_RESOURCES } from '../../lib/permissions';
import type { Role } from '../../modules/roles/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm } from '../components/form';
import { Filters, Pager, Table, when } from '../components/table';

/** A role in the list, with how many users hold it. */
export interface RoleRow {
  role: Role;
  users: number;
}

/**
 * What the signed-in user may do with a role, as the roles service decides it: whether it may
 * write roles at all, whether it covers this role (the grant rule), whether it is its own role.
 */
export interface RoleAccess {
  canWrite: boolean;
  /** The permissions the signed-in user may offer: one it does not hold is shown disabled. */
  offerable: (permission: string) => boolean;
}

export function RoleListPage(v: { rows: RoleRow[]; page: Pagination; url: string; filters: FormState; csrf: string; access: RoleAccess; covers: (role: Role) => boolean }) {
  return (
    <>
      <div class="actions">{v.access.canWrite ? <a href="/admin/roles/new">+ New role</a> : null}</div>
      <Filters action="/admin/roles">
        <Field form={v.filters} name="q" label="Search" />
      </Filters>
      <Table caption="Roles" head={['Name', 'Permissions', 'Users', 'Updated', '']} count={v.rows.length} empty="No roles match.">
        {v.rows.map(({ role, users }) => (
          <tr>
            <td>
              <a href={`/admin/roles/${role.id}`}>{role.name}</a>
              {role.builtIn ? (
                <>
                  {' '}
                  <span class="badge">built-in</span>
                </>
              ) : null}
              {role.description ? <div class="muted">{role.description}</div> : null}
            </td>
            <td>{permissionSummary(role.permissions)}</td>
            <td class="num">{users}</td>
            <td>{when(role.updatedAt)}</td>
            <td>
              {v.access.canWrite && !role.builtIn && users === 0 && v.covers(role) ? (
                <ActionButton action={`/admin/roles/${role.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete role ${role.name}?`} />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

function permissionSummary(permissions: string[]) {
  if (permissions.length === 0) return <span class="muted">none</span>;
  return permissions.map((p, i) => (
    <>
      {i ? ', ' : ''}
      <code>{p}</code>
    </>
  ));
}

export const ROLE_FIELDS = ['name', 'description', 'permissions'];

/** Why the form (or a part of it) cannot be changed, shown above it; undefined when it can. */
export interface RoleLocks {
  /** Nothing can be changed (no roles:write, or the role holds permissions the user lacks). */
  all?: string;
  /** Name and permissions cannot be changed (a built-in role, or the user's own role). */
  permissions?: string;
  name?: string;
}

/** Create or edit a role: name, description and the permissions as a resource × action grid. */
export function RoleForm(v: { action: string; form: FormState; csrf: string; access: RoleAccess; creating: boolean; locks?: RoleLocks }) {
  const f = v.form;
  const locks = v.locks ?? {};
  const notes = [locks.all, locks.name, locks.permissions].filter((x, i, list): x is string => !!x && list.indexOf(x) === i);
  const readOnly = !!locks.all;
  return (
    <PostForm action={v.action} csrf={v.csrf} class="card">
      {notes.map((note) => (
        <p class="muted">{note}</p>
      ))}
      <FormErrors form={f} fields={ROLE_FIELDS} />
      {readOnly || locks.name ? (
        <dl class="facts">
          <dt>Name</dt>
          <dd>{String(f.values.name ?? '')}</dd>
        </dl>
      ) : (
        <Field form={f} name="name" label="Name" required placeholder="catalogue-editor" />
      )}
      {readOnly ? f.values.description ? <p>{String(f.values.description)}</p> : null : <Field form={f} name="description" label="Description" />}
      <PermissionGrid form={f} access={v.access} locked={readOnly || !!locks.permissions} />
      {readOnly ? null : <button type="submit">{v.creating ? 'Create role' : 'Save role'}</button>}
    </PostForm>
  );
}

/**
 * Rows: the resources; columns: read, write and "*" (every action on the resource), and one global
 * "*". A permission the signed-in user does not hold is disabled: the panel never offers it.
 */
export function PermissionGrid(v: { form: FormState; access: RoleAccess; locked: boolean }) {
  const chosen = new Set((v.form.values.permissions as string[] | undefined) ?? []);
  const error = v.form.errors.permissions;
  const box = (permission: string, label: string) => {
    const disabled = v.locked || !v.access.offerable(permission);
    return (
      <input
        type="checkbox"
        name={v.locked ? undefined : 'permissions'}
        value={permission}
        checked={chosen.has(permission)}
        disabled={disabled}
        aria-label={label}
        title={disabled && !v.locked ? 'You do not hold this permission, so you cannot grant it' : undefined}
      />
    );
  };
  return (
    <fieldset class={`field${error ? ' invalid' : ''}`} aria-describedby={error ? 'f-permissions-error' : undefined}>
      <legend>Permissions</legend>
      {v.locked ? null : <input type="hidden" name="permissionsShown" value="1" />}
      {/* biome-ignore lint/a11y/noLabelWithoutControl: box() returns the checkbox the label wraps. */}
      <label class="check">
        {box('*', 'Everything (*)')} <strong>Everything</strong> <code>*</code>: every action on every resource, now and later
      </label>
      <div class="table-wrap" tabindex={0} role="region" aria-label="Permissions by resource">
        <table class="permissions">
          <caption class="sr-only">Permissions by resource and action</caption>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              {PERMISSION_ACTIONS.map((a) => (
                <th scope="col">{a}</th>
              ))}
              <th scope="col">
                <code>*</code> (all)
              </th>
            </tr>
          </thead>
          <tbody>
            {PERMISSION_RESOURCES.map((r) => (
              <tr>
                <th scope="row">{r}</th>
                {PERMISSION_ACTIONS.map((a) => (
                  <td>{box(`${r}:${a}`, `${r}:${a}`)}</td>
                ))}
                <td>{box(`${r}:*`, `${r}:*`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {v.locked ? null : <small>Greyed-out boxes are permissions you do not hold yourself: you cannot grant them.</small>}
      {error ? (
        <p class="error" id="f-permissions-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function RoleEditPage(v: { role: Role; users: number; form: FormState; csrf: string; access: RoleAccess; locks: RoleLocks; canDelete: boolean }) {
  const r = v.role;
  return (
    <>
      <div class="actions">
        <a href="/admin/roles">← All roles</a>
        {r.builtIn ? <span class="badge">built-in</span> : null}
        <span class="muted">
          Held by {v.users} user{v.users === 1 ? '' : 's'}
          {v.users ? (
            <>
              {' '}
              (<a href={`/admin/users?role=${encodeURIComponent(r.id)}`}>see them</a>)
            </>
          ) : null}
        </span>
        {v.canDelete ? <ActionButton action={`/admin/roles/${r.id}/delete`} csrf={v.csrf} label="Delete role" danger confirm={`Delete role ${r.name}?`} /> : null}
      </div>
      <RoleForm action={`/admin/roles/${r.id}`} form={v.form} csrf={v.csrf} access={v.access} creating={false} locks={v.locks} />
    </>
  );
}
