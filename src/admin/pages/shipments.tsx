import type { Pagination } from '../../lib/envelope';
import { SHIPMENT_STATUSES } from '../../db/schema';
import type { Shipment } from '../../modules/shipments/schemas';
import { Field, type FormState, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const BASE = '/admin/shipments';

export function ShipmentsPage(v: { shipments: Shipment[]; page: Pagination; url: string; filters: FormState }) {
  return (
    <>
      <p class="muted">Every shipment, newest first: filter by pending for what waits to ship. A shipment is created and moved on from its order's page.</p>
      <Filters action={BASE} exportTo="shipments">
        <Select form={v.filters} name="status" label="Status" options={SHIPMENT_STATUSES} blank="Any" />
        <Field form={v.filters} name="carrier" label="Carrier" />
        <Field form={v.filters} name="order" label="Order id" />
        <Field form={v.filters} name="shipped_after" label="Shipped from (UTC)" type="date" />
      </Filters>
      <Table
        caption="Shipments"
        head={['Shipment', 'Order', 'Status', 'Carrier', 'Tracking', 'Units', 'Shipped', 'Created']}
        count={v.shipments.length}
        empty="No shipments match."
      >
        {v.shipments.map((s) => (
          <tr>
            <td>
              <code>{s.id}</code>
            </td>
            <td>
              <a href={`/admin/orders/${s.orderId}`}>{s.orderId}</a>
            </td>
            <td>
              <Badge value={s.status} />
            </td>
            <td>{s.carrier ?? '—'}</td>
            <td>{s.trackingUrl ? <a href={s.trackingUrl}>{s.trackingNumber ?? 'track'}</a> : (s.trackingNumber ?? '—')}</td>
            <td class="num">{s.lines.reduce((n, l) => n + l.quantity, 0)}</td>
            <td>{when(s.shippedAt)}</td>
            <td>{when(s.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}
