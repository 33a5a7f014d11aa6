import { ORDER_STATUSES, type OrderStatus } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import { ORDER_TRANSITIONS } from '../../modules/ledger';
import type { Order, OrderDetail } from '../../modules/orders/schemas';
import type { Payment, Refund } from '../../modules/payments/schemas';
import type { Return } from '../../modules/returns/schemas';
import type { Shipment } from '../../modules/shipments/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select, emptyForm } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';
import type { Money } from '../money';
import { toMajor, toMinor } from '../../lib/money';
import { ReturnTable } from './returns';

export function OrderListPage(v: { orders: Order[]; money: Money; page: Pagination; url: string; filters: FormState; canCreate?: boolean }) {
  return (
    <>
      {v.canCreate ? (
        <div class="actions">
          <a href="/admin/orders/new">+ New order</a>
        </div>
      ) : null}
      <Filters action="/admin/orders" exportTo="orders">
        <Select form={v.filters} name="status" label="Status" options={ORDER_STATUSES} blank="Any" />
        <Field form={v.filters} name="created_after" label="From (UTC)" type="date" />
        <Field form={v.filters} name="created_before" label="Before (UTC)" type="date" />
        <Field form={v.filters} name="number" label="Order number" type="number" min="1" />
        <Field form={v.filters} name="customer" label="Customer id" />
      </Filters>
      <OrderTable orders={v.orders} money={v.money} />
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export function OrderTable({ orders, money }: { orders: Order[]; money: Money }) {
  return (
    <Table caption="Orders" head={['Order', 'Placed', 'Customer', 'Status', 'Payment', 'Items', 'Total']} count={orders.length} empty="No orders match.">
      {orders.map((o) => (
        <tr>
          <td>
            <a href={`/admin/orders/${o.number}`} title={o.id}>
              #{o.number}
            </a>
          </td>
          <td>{when(o.createdAt)}</td>
          <td>{o.email ?? o.customerId ?? '—'}</td>
          <td>
            <Badge value={o.status} />
          </td>
          <td>
            <Badge value={o.paymentStatus} />
          </td>
          <td class="num">{o.lines.reduce((n, l) => n + l.quantity, 0)}</td>
          <td class="num">{money(o.total, o.currency)}</td>
        </tr>
      ))}
    </Table>
  );
}

export interface OrderView {
  order: OrderDetail;
  money: Money;
  payments: Payment[] | null;
  refunds: Refund[];
  /** The provider's own page of a payment (a Stripe PaymentIntent in the Stripe dashboard), if it has one. */
  providerLink: (payment: Payment) => string | null;
  shipments: Shipment[];
  returns: Return[];
  csrf: string;
  can: { write: boolean; pay: boolean; ship: boolean; cancel: boolean };
  /** The action whose form failed, shown again with its errors. */
  failed?: { action: string; form: FormState };
}

const formFor = (v: OrderView, action: string, values: Record<string, unknown> = {}) => (v.failed?.action === action ? v.failed.form : emptyForm(values));

export function OrderDetailPage(v: OrderView) {
  const o = v.order;
  const money = v.money;
  const next = ORDER_TRANSITIONS[o.status as OrderStatus].filter((s) => s !== 'cancelled');
  const base = `/admin/orders/${o.id}`;
  return (
    <>
      <div class="actions">
        <a href="/admin/orders">← All orders</a>
        <Badge value={o.status} /> <Badge value={o.paymentStatus} />
      </div>
      <div class="two">
        <section class="card" aria-labelledby="summary">
          <h2 id="summary">Summary</h2>
          <dl class="facts">
            <dt>Order</dt>
            <dd>
              #{o.number} <small class="muted">{o.id}</small>
            </dd>
            <dt>Placed</dt>
            <dd>{when(o.createdAt)}</dd>
            <dt>Customer</dt>
            <dd>{o.email ?? o.customerId}</dd>
            <dt>Subtotal</dt>
            <dd>{money(o.subtotal, o.currency)}</dd>
            <dt>Discount</dt>
            <dd>
              {money(o.discountTotal, o.currency)}
              {o.couponCode ? ` (${o.couponCode})` : ''}
              {o.promotions.map((p) => (
                <small class="muted" data-promotion={p.promotionId}>
                  <br />
                  {p.name}: {money(p.amount, o.currency)}
                  {p.shippingAmount > 0 ? ` (${money(p.shippingAmount, o.currency)} off shipping)` : ''}
                </small>
              ))}
            </dd>
            <dt>Shipping</dt>
            <dd>
              {money(o.shippingTotal, o.currency)}
              {o.shippingMethod ? ` (${[o.shippingMethod.name, o.shippingMethod.carrier].filter(Boolean).join(', ')})` : ''}
            </dd>
            <dt>Tax</dt>
            <dd>
              {money(o.taxTotal, o.currency)}
              {o.pricesIncludeTax ? ' (included in prices)' : ''}
              {o.taxBreakdown.map((t) => (
                <small class="muted" data-tax-rate={t.rate}>
                  <br />
                  {t.rate}% on {money(t.netAmount, o.currency)}: {money(t.taxAmount, o.currency)}
                </small>
              ))}
            </dd>
            <dt>Total</dt>
            <dd>
              <strong>{money(o.total, o.currency)}</strong>
            </dd>
            {/* Null to a vendor user: payments are the whole order's (order-money.ts). */}
            {o.amountPaid !== null && o.amountRefunded !== null && o.amountDue !== null ? (
              <>
                <dt>Paid</dt>
                <dd>{money(o.amountPaid, o.currency)}</dd>
                <dt>Refunded</dt>
                <dd>{money(o.amountRefunded, o.currency)}</dd>
                <dt>Due</dt>
                <dd>{money(o.amountDue, o.currency)}</dd>
              </>
            ) : null}
          </dl>
        </section>
        <section class="card" aria-labelledby="act">
          <h2 id="act">Actions</h2>
          {v.can.write && next.length ? (
            <PostForm action={`${base}/status`} csrf={v.csrf}>
              <FormErrors form={formFor(v, 'status')} fields={['status']} />
              <Select form={formFor(v, 'status', { status: next[0] })} name="status" label="Change status" options={next} />
              <button type="submit">Change status</button>
            </PostForm>
          ) : null}
          {v.can.write ? (
            <PostForm action={`${base}/notes`} csrf={v.csrf}>
              <FormErrors form={formFor(v, 'notes')} fields={['notes']} />
              <Field form={formFor(v, 'notes', { notes: o.notes ?? '' })} name="notes" label="Notes" type="textarea" hint="Internal; saving them alone sends no event." />
              <button type="submit">Save notes</button>
            </PostForm>
          ) : null}
          {v.can.pay && o.amountDue !== null && o.amountDue > 0 && o.status === 'pending' ? (
            <PostForm action={`${base}/payments`} csrf={v.csrf}>
              <h3>Record a payment</h3>
              <FormErrors form={formFor(v, 'payment')} fields={['amount', 'reference']} />
              <div class="form-row">
                <Field form={formFor(v, 'payment', { amount: o.amountDue })} name="amount" label={`Amount (${o.currency})`} type="number" step={money.step(o.currency)} min="0" />
                <Field form={formFor(v, 'payment')} name="reference" label="Reference" hint="E.g. the bank transfer's reference." />
              </div>
              <button type="submit">Record payment</button>
            </PostForm>
          ) : null}
          {v.can.ship && (o.status === 'processing' || o.status === 'shipped') && o.lines.some((l) => l.quantityShipped < l.quantity) ? (
            <PostForm action={`${base}/shipments`} csrf={v.csrf}>
              <h3>Create a shipment</h3>
              <p class="muted">Carries every unit not yet in a shipment.</p>
              <FormErrors form={formFor(v, 'shipment')} fields={['carrier', 'trackingNumber', 'trackingUrl', 'status']} />
              <div class="form-row">
                <Field form={formFor(v, 'shipment')} name="carrier" label="Carrier" />
                <Field form={formFor(v, 'shipment')} name="trackingNumber" label="Tracking number" />
                <Field form={formFor(v, 'shipment')} name="trackingUrl" label="Tracking URL" type="url" />
                <Select
                  form={formFor(v, 'shipment', { status: 'shipped' })}
                  name="status"
                  label="Status"
                  options={[
                    ['shipped', 'Shipped now'],
                    ['pending', 'Pending (not left yet)'],
                  ]}
                />
              </div>
              <button type="submit">Create shipment</button>
            </PostForm>
          ) : null}
          {v.can.cancel && (o.status === 'pending' || o.status === 'processing') ? (
            <PostForm action={`${base}/cancel`} csrf={v.csrf} confirm="Cancel this order? Stock is returned and the customer is told.">
              <h3>Cancel</h3>
              <FormErrors form={formFor(v, 'cancel')} fields={['reason']} />
              <Field form={formFor(v, 'cancel')} name="reason" label="Reason" />
              <button type="submit" class="danger">
                Cancel order
              </button>
            </PostForm>
          ) : null}
        </section>
      </div>
      <h2>Lines</h2>
      <Table caption="Order lines" head={['Item', 'SKU', 'Qty', 'Shipped', 'Returned', 'Refunded', 'Unit', 'Tax', 'Total']} count={o.lines.length}>
        {o.lines.map((l) => (
          <tr>
            <td>{l.name}</td>
            <td>{l.sku ?? '—'}</td>
            <td class="num">{l.quantity}</td>
            <td class="num">{l.quantityShipped}</td>
            <td class="num">{l.quantityReturned}</td>
            <td class="num">{l.quantityRefunded}</td>
            <td class="num">{money(l.unitPrice, o.currency)}</td>
            <td class="num">
              {money(l.taxAmount, o.currency)}
              {l.taxRate === null ? '' : ` (${l.taxRate}%)`}
            </td>
            <td class="num">{money(l.total, o.currency)}</td>
          </tr>
        ))}
      </Table>
      {v.payments ? <Payments v={v} /> : null}
      <h2>Shipments</h2>
      <Table caption="Shipments" head={['Shipment', 'Status', 'Carrier', 'Tracking', 'Shipped', '']} count={v.shipments.length} empty="No shipments yet.">
        {v.shipments.map((s) => (
          <tr>
            <td>{s.id}</td>
            <td>
              <Badge value={s.status} />
            </td>
            <td>{s.carrier ?? '—'}</td>
            <td>{s.trackingUrl ? <a href={s.trackingUrl}>{s.trackingNumber ?? 'track'}</a> : (s.trackingNumber ?? '—')}</td>
            <td>{when(s.shippedAt)}</td>
            <td>
              {v.can.ship && s.status !== 'delivered' ? (
                <ActionButton
                  action={`${base}/shipments/${s.id}`}
                  csrf={v.csrf}
                  label={s.status === 'pending' ? 'Mark shipped' : 'Mark delivered'}
                  fields={{ status: s.status === 'pending' ? 'shipped' : 'delivered' }}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <h2>Returns</h2>
      <ReturnTable returns={v.returns} empty="No returns." />
      <h2>History</h2>
      <Table caption="Status history" head={['When', 'From', 'To', 'By', 'Note']} count={o.history.length}>
        {o.history.map((h) => (
          <tr>
            <td>{when(h.createdAt)}</td>
            <td>{h.fromStatus ?? '—'}</td>
            <td>{h.toStatus}</td>
            <td>{h.actor}</td>
            <td>{h.note ?? ''}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

/**
 * A payment's refund: units of each line (worth what was paid for them, docs/refunds.md), shipping,
 * and where the money goes; an amount left empty is what the chosen units are worth, or everything
 * left on the payment when none are chosen.
 */
function RefundFields({ v, payment: p }: { v: OrderView; payment: Payment }) {
  const o = v.order;
  const form = formFor(v, `refund-${p.id}`);
  const open = o.lines.filter((l) => l.quantityRefunded < l.quantity);
  const money = v.money;
  const digits = money.digits(p.currency);
  const left = toMajor(toMinor(p.amount, digits) - toMinor(p.amountRefunded, digits), digits);
  return (
    <>
      <FormErrors form={form} fields={['amount', 'reason', 'shipping', 'destination', 'lines']} />
      {open.map((l) => (
        <Field form={form} name={`line-${l.id}`} label={`${l.name}: units (of ${l.quantity - l.quantityRefunded})`} type="number" step="1" min="0" />
      ))}
      <label>
        <input type="checkbox" name="shipping" checked={form.values.shipping === 'on'} /> Refund shipping
      </label>
      <Field
        form={form}
        name="amount"
        label="Amount"
        type="number"
        step={money.step(p.currency)}
        min="0"
        hint={`Empty: what the units are worth, or all that is left (${money(left, p.currency)}).`}
      />
      <Field form={form} name="reason" label="Reason" />
      {o.customerId && p.provider !== 'store_credit' ? (
        <Select
          form={formFor(v, `refund-${p.id}`, { destination: 'payment' })}
          name="destination"
          label="To"
          options={[
            ['payment', 'The payment'],
            ['store_credit', 'Store credit'],
          ]}
        />
      ) : null}
    </>
  );
}

function Payments({ v }: { v: OrderView }) {
  const o = v.order;
  const money = v.money;
  const payments = v.payments ?? [];
  return (
    <>
      <h2>Payments</h2>
      <Table caption="Payments" head={['Payment', 'Provider', 'Status', 'Amount', 'Refunded', 'Reference', 'When', 'Refund']} count={payments.length} empty="No payments yet.">
        {payments.map((p) => {
          const link = v.providerLink(p);
          return (
            <tr>
              <td>{p.id}</td>
              <td>{p.provider}</td>
              <td>
                <Badge value={p.status} />
                {p.disputeStatus ? (
                  <div>
                    Disputed: <Badge value={p.disputeStatus} />
                  </div>
                ) : null}
                {p.status === 'failed' && p.failureReason ? <div class="muted">{p.failureReason}</div> : null}
              </td>
              <td class="num">{money(p.amount, p.currency)}</td>
              <td class="num">{money(p.amountRefunded, p.currency)}</td>
              <td>
                {link ? (
                  <a href={link} target="_blank" rel="noopener noreferrer">
                    {p.providerReference}
                  </a>
                ) : (
                  (p.providerReference ?? '—')
                )}
              </td>
              <td>{when(p.createdAt)}</td>
              <td>
                {v.can.pay && (p.status === 'completed' || p.status === 'partially_refunded') ? (
                  <PostForm
                    action={`/admin/orders/${o.id}/payments/${p.id}/refund`}
                    csrf={v.csrf}
                    confirm={`Refund this amount to the customer${p.provider === 'manual' ? '' : ` through ${p.provider}`}?`}
                  >
                    <RefundFields v={v} payment={p} />
                    <button type="submit" class="danger">
                      {p.provider === 'manual' ? 'Refund' : `Refund through ${p.provider}`}
                    </button>
                  </PostForm>
                ) : null}
              </td>
            </tr>
          );
        })}
      </Table>
      {v.refunds.length ? (
        <Table caption="Refunds" head={['Refund', 'Payment', 'Status', 'Amount', 'To', 'Reason', 'Reference', 'When']} count={v.refunds.length}>
          {v.refunds.map((r) => (
            <tr>
              <td>{r.id}</td>
              <td>{r.paymentId}</td>
              <td>
                <Badge value={r.status} />
                {r.failureReason ? <div class="muted">{r.failureReason}</div> : null}
              </td>
              <td class="num">{money(r.amount, r.currency)}</td>
              <td>{r.destination === 'store_credit' ? 'store credit' : 'payment'}</td>
              <td>{r.reason ?? '—'}</td>
              <td>{r.providerReference ?? '—'}</td>
              <td>{when(r.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
