import type { Pagination } from '../../lib/envelope';
import { CART_STATUSES } from '../../db/schema';
import type { Cart } from '../../modules/carts/schemas';
import { Field, type FormState, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';
import type { Money } from '../money';

const BASE = '/admin/carts';

/** How long ago, in the largest whole unit: `3 h`, `2 d`. */
export function idleFor(since: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
}

export function CartsPage(v: { carts: Cart[]; money: Money; page: Pagination; url: string; filters: FormState }) {
  const money = v.money;
  return (
    <>
      <p class="muted">
        Every cart, most recently changed first, priced as checkout would price it now. A cart with lines and an email left unchanged for an hour becomes abandoned; any change
        makes it active again.
      </p>
      <Filters action={BASE} exportTo="carts">
        <Select form={v.filters} name="status" label="Status" options={CART_STATUSES} blank="Any" />
        <Field form={v.filters} name="email" label="Email" />
        <Field form={v.filters} name="customer" label="Customer id" />
        <Field form={v.filters} name="updated_before" label="Idle since before (UTC)" type="date" />
        <Field form={v.filters} name="min_total" label="Lines worth at least" type="number" hint="Today's prices, default currency." />
      </Filters>
      <Table caption="Carts" head={['Cart', 'Status', 'Contact', 'Lines', 'Total', 'Idle', 'Created']} count={v.carts.length} empty="No carts match.">
        {v.carts.map((cart) => (
          <tr>
            <td>
              <code>{cart.id}</code>
              {cart.orderId ? (
                <div class="muted">
                  <a href={`/admin/orders/${cart.orderId}`}>{cart.orderId}</a>
                </div>
              ) : null}
            </td>
            <td>
              <Badge value={cart.status} />
            </td>
            <td>
              {cart.email ?? '—'}
              {cart.customerId ? (
                <div class="muted">
                  <a href={`/admin/customers/${cart.customerId}`}>{cart.customerId}</a>
                </div>
              ) : null}
            </td>
            <td>
              {cart.lines.length === 0 ? <span class="muted">empty</span> : null}
              <ul class="plain">
                {cart.lines.map((line) => (
                  <li>
                    {line.quantity} x {line.name}
                    {line.sku ? <span class="muted"> ({line.sku})</span> : null}
                  </li>
                ))}
              </ul>
            </td>
            <td class="num">
              {money(cart.totals.total, cart.currency)}
              {cart.shippingMethod ? (
                <>
                  <br />
                  <small class="muted">
                    {cart.shippingMethodChosen ? 'ships by' : 'cheapest:'} {cart.shippingMethod.name} {money(cart.shippingMethod.amount, cart.currency)}
                  </small>
                </>
              ) : null}
              {cart.totals.taxBreakdown.map((t) => (
                <>
                  <br />
                  <small class="muted" data-tax-rate={t.rate}>
                    tax {t.rate}% {money(t.taxAmount, cart.currency)} {cart.pricesIncludeTax ? 'incl.' : 'added'}
                  </small>
                </>
              ))}
            </td>
            <td title={cart.updatedAt}>{idleFor(cart.updatedAt)}</td>
            <td>{when(cart.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}
