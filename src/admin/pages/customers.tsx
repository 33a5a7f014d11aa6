import type { Pagination } from '../../lib/envelope';
import type { Customer } from '../../modules/customers/customers.schemas';
import { Field, type FormState } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

export function CustomerListPage(v: { customers: Customer[]; page: Pagination; url: string; filters: FormState }) {
  return (
    <>
      <Filters action="/admin/customers">
        <Field form={v.filters} name="q" label="Search name or email" />
      </Filters>
      <Table caption="Customers" head={['Name', 'Email', 'Status', 'Signed up', 'Last sign-in', '']} count={v.customers.length} empty="No customers match.">
        {v.customers.map((c) => (
          <tr>
            <td>{c.name ?? '—'}</td>
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
    </>
  );
}
