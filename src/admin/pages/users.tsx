import { USER_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { User } from '../../modules/users/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

type Option = [string, string];

export interface UserChoices {
  /** Every role but customer, for the list's filter: [id, name]. */
  allRoles: Option[];
  /** The roles the signed-in user covers (the grant rule): the only ones it is offered to give. */
  grantable: Option[];
  /** Vendors, for the vendor role; empty when that role is not grantable. */
  vendors: Option[];
}

const roleName = (choices: UserChoices, id: string) => choices.allRoles.find(([value]) => value === id)?.[1] ?? id;

export function UserListPage(v: { users: User[]; page: Pagination; url: string; filters: FormState; choices: UserChoices; canWrite: boolean }) {
  return (
    <>
      <div class="actions">{v.canWrite ? <a href="/admin/users/new">+ New staff user</a> : null}</div>
      <Filters action="/admin/users" exportTo="users">
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="role" label="Role" options={v.choices.allRoles} blank="Any" />
        <Select form={v.filters} name="status" label="Status" options={USER_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Staff users" head={['Name', 'Email', 'Role', 'Status', 'Last sign-in', 'Created']} count={v.users.length} empty="No staff users match.">
        {v.users.map((u) => (
          <tr>
            <td>
              <a href={`/admin/users/${u.id}`}>{u.name ?? u.email}</a>
            </td>
            <td>{u.email}</td>
            <td>
              {roleName(v.choices, u.role)}
              {u.vendorId ? <div class="muted">vendor {u.vendorId}</div> : null}
            </td>
            <td>
              <Badge value={u.status} />
            </td>
            <td>{when(u.lastLoginAt)}</td>
            <td>{when(u.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export const NEW_USER_FIELDS = ['name', 'email', 'password', 'role', 'vendorId', 'phone'];

export function NewUserPage(v: { form: FormState; csrf: string; choices: UserChoices }) {
  const f = v.form;
  return (
    <>
      <div class="actions">
        <a href="/admin/users">← All staff users</a>
      </div>
      <PostForm action="/admin/users/new" csrf={v.csrf} class="card">
        <FormErrors form={f} fields={NEW_USER_FIELDS} />
        <div class="form-row">
          <Field form={f} name="name" label="Name" required autocomplete="off" />
          <Field form={f} name="email" label="Email" type="email" required autocomplete="off" />
          <Field
            form={f}
            name="password"
            label="Password"
            type="password"
            required
            autocomplete="new-password"
            hint="At least 8 characters; give it to the user to sign in with."
          />
        </div>
        <div class="form-row">
          <Select form={f} name="role" label="Role" options={v.choices.grantable} required />
          {v.choices.vendors.length ? <Select form={f} name="vendorId" label="Vendor" options={v.choices.vendors} blank="None (only for the vendor role)" /> : null}
        </div>
        <p class="muted">Only roles whose every permission you hold are offered.</p>
        <button type="submit">Create user</button>
      </PostForm>
    </>
  );
}

export interface UserEditForms {
  details: FormState;
  role: FormState;
  password: FormState;
}

/** What the signed-in user may do to this user (the users service refuses the rest anyway). */
export interface UserEditAccess {
  /** users:write and it covers the user; otherwise why not. */
  canWrite: boolean;
  why?: string;
  self: boolean;
}

export function UserEditPage(v: { user: User; forms: UserEditForms; csrf: string; choices: UserChoices; access: UserEditAccess }) {
  const u = v.user;
  const base = `/admin/users/${u.id}`;
  const { canWrite, self } = v.access;
  return (
    <>
      <div class="actions">
        <a href="/admin/users">← All staff users</a>
        <Badge value={u.status} />
        {canWrite && !self ? (
          u.status === 'active' ? (
            <ActionButton
              action={`${base}/status`}
              csrf={v.csrf}
              label="Disable"
              fields={{ status: 'disabled' }}
              confirm={`Disable ${u.email}? They are signed out everywhere and cannot sign in.`}
            />
          ) : (
            <ActionButton action={`${base}/status`} csrf={v.csrf} label="Enable" fields={{ status: 'active' }} />
          )
        ) : null}
        {canWrite && !self ? (
          <ActionButton action={`${base}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete ${u.email}? This cannot be undone; the API keys it owns are revoked.`} />
        ) : null}
      </div>
      <section class="card" aria-labelledby="user-facts">
        <h2 id="user-facts">Account</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>{u.email}</dd>
          <dt>Role</dt>
          <dd>
            <a href={`/admin/roles/${u.role}`}>{roleName(v.choices, u.role)}</a>
          </dd>
          {u.vendorId ? (
            <>
              <dt>Vendor</dt>
              <dd>{u.vendorId}</dd>
            </>
          ) : null}
          <dt>Status</dt>
          <dd>{u.status}</dd>
          <dt>Last sign-in</dt>
          <dd>{when(u.lastLoginAt)}</dd>
          <dt>Created</dt>
          <dd>{when(u.createdAt)}</dd>
        </dl>
        {self ? <p class="muted">This is you: you cannot change your own role, disable or delete yourself.</p> : null}
        {/* A refused change of a form this user is not offered (forged, or changed meanwhile): the API's message. */}
        {(canWrite ? (self ? [v.forms.role] : []) : [v.forms.details, v.forms.role, v.forms.password]).map((form) => (
          <FormErrors form={form} fields={[]} />
        ))}
        {!canWrite && v.access.why ? <p class="muted">{v.access.why}</p> : null}
      </section>
      {canWrite ? (
        <>
          <section class="card" aria-labelledby="user-details">
            <h2 id="user-details">Details</h2>
            <PostForm action={base} csrf={v.csrf}>
              <FormErrors form={v.forms.details} fields={['name', 'phone']} />
              <div class="form-row">
                <Field form={v.forms.details} name="name" label="Name" />
                <Field form={v.forms.details} name="phone" label="Phone" type="tel" />
              </div>
              <button type="submit">Save details</button>
            </PostForm>
          </section>
          {self ? null : (
            <section class="card" aria-labelledby="user-role">
              <h2 id="user-role">Role</h2>
              <PostForm action={`${base}/role`} csrf={v.csrf}>
                <FormErrors form={v.forms.role} fields={['role', 'vendorId']} />
                <div class="form-row">
                  <Select form={v.forms.role} name="role" label="Role" options={v.choices.grantable} />
                  {v.choices.vendors.length ? (
                    <Select form={v.forms.role} name="vendorId" label="Vendor" options={v.choices.vendors} blank="None (only for the vendor role)" />
                  ) : null}
                </div>
                <p class="muted">Only roles whose every permission you hold are offered.</p>
                <button type="submit">Change role</button>
              </PostForm>
            </section>
          )}
          <section class="card" aria-labelledby="user-password">
            <h2 id="user-password">Reset password</h2>
            <PostForm action={`${base}/password`} csrf={v.csrf}>
              <FormErrors form={v.forms.password} fields={['password']} />
              <Field
                form={v.forms.password}
                name="password"
                label="New password"
                type="password"
                required
                autocomplete="new-password"
                hint="Signs the user out everywhere; give them the new password."
              />
              <button type="submit">Set password</button>
            </PostForm>
          </section>
        </>
      ) : null}
    </>
  );
}
