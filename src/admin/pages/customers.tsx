import { USER_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Address, Customer } from '../../modules/customers/schemas';
import type { CustomerGroup } from '../../modules/customer-groups/schemas';
import { ActionButton, emptyForm, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';
import type { Order } from '../../modules/orders/schemas';
import { OrderTable } from './orders';
import type { Money } from '../money';
import { StoreCreditSection, type StoreCreditView } from './store-credit';

/** A checkbox whose state is refilled from the form ('on' when ticked). */
function Check(props: { form: FormState; name: string; label: string }) {
  const error = props.form.errors[props.name];
  const on = props.form.values[props.name] === 'on' || props.form.values[props.name] === true;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label class="check">
        <input type="checkbox" name={props.name} checked={on} /> {props.label}
      </label>
      {error ? (
        <p class="error" id={`f-${props.name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const CUSTOMER_FIELDS = ['email', 'name', 'phone', 'status', 'password', 'smsOptOut', 'marketingEmailOptOut'];

export function CustomerListPage(v: { customers: Customer[]; page: Pagination; url: string; filters: FormState; form: FormState; csrf: string; canWrite: boolean }) {
  return (
    <>
      <Filters action="/admin/customers" exportTo="customers">
        <Field form={v.filters} name="q" label="Search name or email" />
      </Filters>
      <Table caption="Customers" head={['Name', 'Email', 'Status', 'Signed up', 'Last sign-in', '']} count={v.customers.length} empty="No customers match.">
        {v.customers.map((c) => (
          <tr>
            <td>
              <a href={`/admin/customers/${c.id}`}>{c.name ?? c.email}</a>
            </td>
            <td>{c.email}</td>
            <td>
              <Badge value={c.status} />
            </td>
            <td>{when(c.createdAt)}</td>
            <td>{when(c.lastLoginAt)}</td>
            <td>
              <a href={`/admin/orders?customer=${encodeURIComponent(c.id)}`}>Orders</a>
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <PostForm action="/admin/customers" csrf={v.csrf} class="card">
          <h2>New customer</h2>
          <FormErrors form={v.form} fields={CUSTOMER_FIELDS} />
          <div class="form-row">
            <Field form={v.form} name="email" label="Email" type="email" required autocomplete="off" />
            <Field form={v.form} name="name" label="Name" />
            <Field form={v.form} name="phone" label="Phone" type="tel" hint="E.164, like +14155550100." />
          </div>
          <div class="form-row">
            <Field
              form={v.form}
              name="password"
              label="Password"
              type="password"
              autocomplete="new-password"
              hint="Optional: without one, the customer cannot sign in until a password is set."
            />
            <Select form={v.form} name="status" label="Status" options={USER_STATUSES} />
          </div>
          <Check form={v.form} name="smsOptOut" label="No SMS at all" />
          <Check form={v.form} name="marketingEmailOptOut" label="No marketing email" />
          <button type="submit">Create customer</button>
        </PostForm>
      ) : null}
    </>
  );
}

export interface CustomerDetailForms {
  details: FormState;
  address: FormState;
  credit: FormState;
}

const ADDRESS_FIELDS = ['firstName', 'lastName', 'company', 'line1', 'line2', 'city', 'region', 'postalCode', 'country', 'phone', 'isDefaultShipping', 'isDefaultBilling'];

/** The fields of CreateAddress / UpdateAddress. */
function AddressFields({ form }: { form: FormState }) {
  return (
    <>
      <FormErrors form={form} fields={ADDRESS_FIELDS} />
      <div class="form-row">
        <Field form={form} name="firstName" label="First name" />
        <Field form={form} name="lastName" label="Last name" />
        <Field form={form} name="company" label="Company" />
      </div>
      <div class="form-row">
        <Field form={form} name="line1" label="Address line 1" required />
        <Field form={form} name="line2" label="Address line 2" />
      </div>
      <div class="form-row">
        <Field form={form} name="city" label="City" required />
        <Field form={form} name="region" label="Region" />
        <Field form={form} name="postalCode" label="Postal code" />
        <Field form={form} name="country" label="Country" required placeholder="US" hint="ISO 3166-1 alpha-2, in capitals." />
      </div>
      <Field form={form} name="phone" label="Phone" type="tel" hint="E.164, like +14155550100." />
      <Check form={form} name="isDefaultShipping" label="Default shipping address" />
      <Check form={form} name="isDefaultBilling" label="Default billing address" />
    </>
  );
}

const addressLine = (a: Address) => [a.line1, a.line2, [a.postalCode, a.city].filter(Boolean).join(' '), a.region, a.country].filter(Boolean).join(', ');
const addressName = (a: Address) => [a.firstName, a.lastName].filter(Boolean).join(' ') + (a.company ? ` (${a.company})` : '');

export function CustomerDetailPage(v: {
  customer: Customer;
  addresses: Address[];
  orders: Order[];
  orderTotal: number;
  /** Absent for staff without `store-credit:read`. */
  credit?: StoreCreditView & { canWrite: boolean };
  money: Money;
  /** The store's customer groups (the first page of them), to show and change the customer's. */
  groups: CustomerGroup[];
  forms: CustomerDetailForms;
  csrf: string;
  canWrite: boolean;
  maxAddresses: number;
}) {
  const c = v.customer;
  const base = `/admin/customers/${c.id}`;
  return (
    <>
      <div class="actions">
        <a href="/admin/customers">← All customers</a>
        <Badge value={c.status} />
      </div>
      <section class="card">
        <dl class="facts">
          <dt>Name</dt>
          <dd>{c.name ?? '—'}</dd>
          <dt>Email</dt>
          <dd>{c.email}</dd>
          <dt>Phone</dt>
          <dd>{c.phone ?? '—'}</dd>
          <dt>Signed up</dt>
          <dd>{when(c.createdAt)}</dd>
          <dt>Last sign-in</dt>
          <dd>{when(c.lastLoginAt)}</dd>
        </dl>
      </section>
      {v.canWrite ? (
        <PostForm action={base} csrf={v.csrf} class="card">
          <h2>Edit customer</h2>
          <FormErrors form={v.forms.details} fields={CUSTOMER_FIELDS} />
          <div class="form-row">
            <Field form={v.forms.details} name="name" label="Name" hint="Blank clears it." />
            <Field form={v.forms.details} name="email" label="Email" type="email" required hint="Changing it signs the customer out everywhere." />
            <Field form={v.forms.details} name="phone" label="Phone" type="tel" hint="E.164, like +14155550100. Blank clears it." />
            <Select form={v.forms.details} name="status" label="Status" options={USER_STATUSES} />
          </div>
          <Check form={v.forms.details} name="smsOptOut" label="No SMS at all" />
          <Check form={v.forms.details} name="marketingEmailOptOut" label="No marketing email" />
          <button type="submit">Save customer</button>
        </PostForm>
      ) : null}

      <GroupsSection base={base} customer={c} groups={v.groups} csrf={v.csrf} canWrite={v.canWrite} />

      <h2>Addresses</h2>
      <Table caption="Addresses" head={['Name', 'Address', 'Phone', 'Default', '']} count={v.addresses.length} empty="No addresses.">
        {v.addresses.map((a) => (
          <tr data-address={a.id}>
            <td>{addressName(a) || '—'}</td>
            <td>{addressLine(a)}</td>
            <td>{a.phone ?? '—'}</td>
            <td>
              {a.isDefaultShipping ? <Badge value="shipping" /> : null} {a.isDefaultBilling ? <Badge value="billing" /> : null}
            </td>
            <td>
              {v.canWrite ? (
                <div class="actions">
                  <a href={`${base}/addresses/${a.id}`}>Edit</a>
                  {a.isDefaultShipping ? null : <ActionButton action={`${base}/addresses/${a.id}/default`} csrf={v.csrf} label="Default shipping" fields={{ kind: 'shipping' }} />}
                  {a.isDefaultBilling ? null : <ActionButton action={`${base}/addresses/${a.id}/default`} csrf={v.csrf} label="Default billing" fields={{ kind: 'billing' }} />}
                  <ActionButton action={`${base}/addresses/${a.id}/delete`} csrf={v.csrf} label="Delete" danger confirm="Delete this address?" />
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {v.canWrite ? (
        <PostForm action={`${base}/addresses`} csrf={v.csrf} class="card">
          <h2>Add an address</h2>
          <p class="muted">At most {v.maxAddresses} addresses. A new default takes it away from the other addresses.</p>
          <AddressFields form={v.forms.address} />
          <button type="submit">Add address</button>
        </PostForm>
      ) : null}

      {v.credit ? <StoreCreditSection base={base} credit={v.credit} money={v.money} form={v.forms.credit} csrf={v.csrf} canWrite={v.credit.canWrite} /> : null}

      <h2>Latest orders</h2>
      <OrderTable orders={v.orders} money={v.money} />
      {v.orderTotal > v.orders.length ? (
        <p>
          <a href={`/admin/orders?customer=${encodeURIComponent(c.id)}`}>All {v.orderTotal} orders</a>
        </p>
      ) : null}

      {v.canWrite ? (
        <section class="card">
          <h2>Delete customer</h2>
          <p class="muted">Deletes the account with its addresses. A customer with orders cannot be deleted: disable it instead.</p>
          <ActionButton action={`${base}/delete`} csrf={v.csrf} label="Delete customer" danger confirm={`Delete customer ${c.email}?`} />
        </section>
      ) : null}
    </>
  );
}

/** The customer's groups, each with a button to leave it, and a select of the others to join (their price lists apply at once). */
function GroupsSection(v: { base: string; customer: Customer; groups: CustomerGroup[]; csrf: string; canWrite: boolean }) {
  const byId = new Map(v.groups.map((g) => [g.id, g]));
  const others = v.groups.filter((g) => !v.customer.groupIds.includes(g.id));
  return (
    <section class="card">
      <h2>Customer groups</h2>
      <p class="muted">
        The customer buys at the prices of its groups' <a href="/admin/price-lists">price lists</a>.
      </p>
      {v.customer.groupIds.length ? (
        <ul>
          {v.customer.groupIds.map((id) => (
            <li data-group={id}>
              <a href={`/admin/customer-groups/${id}`}>{byId.get(id)?.name ?? id}</a>{' '}
              {v.canWrite ? <ActionButton action={`${v.base}/groups/${id}/delete`} csrf={v.csrf} label="Remove" /> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>In no group.</p>
      )}
      {v.canWrite && others.length ? (
        <PostForm action={`${v.base}/groups`} csrf={v.csrf} class="inline">
          <Select form={emptyForm()} name="groupId" label="Add to group" options={others.map((g) => [g.id, g.name])} required />
          <button type="submit">Add to group</button>
        </PostForm>
      ) : null}
    </section>
  );
}

export function AddressEditPage(v: { customer: Customer; address: Address; form: FormState; csrf: string; canWrite: boolean }) {
  const base = `/admin/customers/${v.customer.id}`;
  return (
    <>
      <div class="actions">
        <a href={base}>← {v.customer.name ?? v.customer.email}</a>
      </div>
      {v.canWrite ? (
        <PostForm action={`${base}/addresses/${v.address.id}`} csrf={v.csrf} class="card">
          <h2>Edit address</h2>
          <AddressFields form={v.form} />
          <button type="submit">Save address</button>
        </PostForm>
      ) : (
        <section class="card">
          <p>{addressName(v.address)}</p>
          <p>{addressLine(v.address)}</p>
        </section>
      )}
    </>
  );
}
