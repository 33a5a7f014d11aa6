import type { Pagination } from '../../lib/envelope';
import type { Customer } from '../../modules/customers/customers.schemas';
import { Field, type FormState } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';
import type { Order } from '../../modules/orders/orders.schemas';
import { OrderTable } from './orders';

export function CustomerListPage(v: { customers: Customer[]; page: Pagination; url: string; filters: FormState }) {
  return (
    <>
      <Filters action="/admin/customers">
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
    </>
  );
}

export function CustomerDetailPage(v: { customer: Customer; orders: Order[]; orderTotal: number }) {
  const c = v.customer;
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
      <h2>Latest orders</h2>
      <OrderTable orders={v.orders} />
      {v.orderTotal > v.orders.length ? (
        <p>
          <a href={`/admin/orders?customer=${encodeURIComponent(c.id)}`}>All {v.orderTotal} orders</a>
        </p>
      ) : null}
    </>
  );
}
