import type { Pagination } from '../../lib/envelope';
import type { CustomerGroup } from '../../modules/customer-groups/schemas';
import type { Customer } from '../../modules/customers/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm } from '../components/form';
import { Filters, Pager, Table } from '../components/table';

const HERE = '/admin/customer-groups';
export const GROUP_FIELDS = ['name', 'description'];

function GroupFields({ form }: { form: FormState }) {
  return (
    <>
      <FormErrors form={form} fields={GROUP_FIELDS} />
      <div class="form-row">
        <Field form={form} name="name" label="Name" required placeholder="Wholesale" />
        <Field form={form} name="description" label="Description" />
      </div>
    </>
  );
}

const deleteConfirm = (g: CustomerGroup) => `Delete the customer group “${g.name}”? Its customers stay, outside it.`;

export function CustomerGroupListPage(v: { groups: CustomerGroup[]; page: Pagination; url: string; filters: FormState; form: FormState; csrf: string; canWrite: boolean }) {
  return (
    <>
      <p class="muted">
        Customers in a group buy at the prices of the group's <a href="/admin/price-lists">price lists</a>. A customer may be in several groups.
      </p>
      <Filters action={HERE}>
        <Field form={v.filters} name="q" label="Search" />
      </Filters>
      <Table caption="Customer groups" head={['Name', 'Description', 'Members', '']} count={v.groups.length} empty="No customer groups yet.">
        {v.groups.map((g) => (
          <tr>
            <td>
              <a href={`${HERE}/${g.id}`}>{g.name}</a>
            </td>
            <td class="muted">{g.description ?? '—'}</td>
            <td>
              <a href={`/admin/customers?group=${encodeURIComponent(g.id)}`}>{g.memberCount}</a>
            </td>
            <td>{v.canWrite ? <ActionButton action={`${HERE}/${g.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={deleteConfirm(g)} /> : null}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <PostForm action={HERE} csrf={v.csrf} class="card">
          <h2>New customer group</h2>
          <GroupFields form={v.form} />
          <button type="submit">Create group</button>
        </PostForm>
      ) : null}
    </>
  );
}

export function CustomerGroupEditPage(v: {
  group: CustomerGroup;
  members: Customer[];
  page: Pagination;
  url: string;
  form: FormState;
  membersForm: FormState;
  csrf: string;
  canWrite: boolean;
}) {
  const g = v.group;
  const base = `${HERE}/${g.id}`;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All customer groups</a>
        <a href={`/admin/price-lists?customer_group=${encodeURIComponent(g.id)}`}>Its price lists</a>
      </div>
      {v.canWrite ? (
        <PostForm action={base} csrf={v.csrf} class="card">
          <h2>Edit group</h2>
          <GroupFields form={v.form} />
          <button type="submit">Save group</button>
        </PostForm>
      ) : null}
      <Table caption={`Members (${g.memberCount})`} head={['Name', 'Email', '']} count={v.members.length} empty="No customers in this group.">
        {v.members.map((c) => (
          <tr>
            <td>
              <a href={`/admin/customers/${c.id}`}>{c.name ?? c.email}</a>
            </td>
            <td>{c.email}</td>
            <td>{v.canWrite ? <ActionButton action={`${base}/members/${c.id}/delete`} csrf={v.csrf} label="Remove" /> : null}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <>
          <PostForm action={`${base}/members`} csrf={v.csrf} class="card">
            <h2>Add customers</h2>
            <FormErrors form={v.membersForm} fields={['customerIds']} />
            <Field
              form={v.membersForm}
              name="customerIds"
              label="Customer ids"
              type="textarea"
              required
              hint="Separated by commas, spaces or lines (each customer's page shows its id; a customer's page also adds it to a group)."
            />
            <button type="submit">Add to group</button>
          </PostForm>
          <ActionButton action={`${base}/delete`} csrf={v.csrf} label="Delete group" danger confirm={deleteConfirm(g)} />
        </>
      ) : null}
    </>
  );
}
