import type { InventoryItem } from '../../modules/inventory/schemas';
import type { Order } from '../../modules/orders/schemas';
import type { WebhookEndpoint } from '../../modules/webhooks/schemas';
import { OrderTable } from './orders';
import { Badge, Stat, Table, when } from '../components/table';
import type { Money } from '../money';
import { Sparkline } from '../components/chart';

export interface DashboardView {
  money: Money;
  /** The store's default currency: an amount of nothing is said in it. */
  currency: string;
  today: { count: number; revenue: [string, number][]; partial: boolean } | null;
  toShip: { total: number; orders: Order[] } | null;
  unpaid: number | null;
  lowStock: { total: number; items: InventoryItem[] } | null;
  failingWebhooks: WebhookEndpoint[] | null;
  /** Orders from carts that had been abandoned, over the last `days`. */
  recovered: { orders: number; revenue: [string, number][]; days: number } | null;
  /** Sales per day over the last 30 days, in the store's currency (reports:read). */
  sales: { currency: string; total: number; orders: number; days: { day: string; sales: number }[] } | null;
}

/** Amounts in several currencies on one card: "1200 JPY · 19.90 EUR". */
const amounts = (money: Money, revenue: [string, number][], currency: string) =>
  revenue.length ? revenue.map(([code, amount]) => money(amount, code)).join(' · ') : money(0, currency);

export function DashboardPage(v: DashboardView) {
  return (
    <>
      <div class="grid">
        {v.today ? (
          <>
            <Stat label="Orders placed today, any status" value={String(v.today.count)} href={`/admin/orders?created_after=${new Date().toISOString().slice(0, 10)}`} />
            <Stat label={`Revenue today, cancelled orders left out${v.today.partial ? ' (first 100 orders)' : ''}`} value={amounts(v.money, v.today.revenue, v.currency)} />
          </>
        ) : null}
        {v.sales ? <SalesCard {...v.sales} money={v.money} /> : null}
        {v.toShip ? <Stat label="Paid, waiting to ship" value={String(v.toShip.total)} href="/admin/orders?status=processing" /> : null}
        {v.unpaid !== null ? <Stat label="Awaiting payment" value={String(v.unpaid)} href="/admin/orders?status=pending" /> : null}
        {v.lowStock ? <Stat label="Variants low on stock" value={String(v.lowStock.total)} href="/admin/inventory?low=true" /> : null}
        {v.failingWebhooks ? <Stat label="Failing webhook endpoints" value={String(v.failingWebhooks.length)} href="/admin/webhooks" /> : null}
        {v.recovered ? (
          <Stat
            label={`Recovered from abandoned carts (${v.recovered.days} days, ${v.recovered.orders} orders)`}
            value={amounts(v.money, v.recovered.revenue, v.currency)}
            href="/admin/carts?status=converted"
          />
        ) : null}
      </div>
      {v.toShip ? (
        <section aria-labelledby="to-ship">
          <h2 id="to-ship">Orders needing action</h2>
          <OrderTable orders={v.toShip.orders} money={v.money} />
        </section>
      ) : null}
      {v.lowStock ? (
        <section aria-labelledby="low">
          <h2 id="low">Low stock</h2>
          <Table caption="Low stock" head={['Product', 'Variant', 'SKU', 'Stock', 'Threshold']} count={v.lowStock.items.length} empty="Nothing is low on stock.">
            {v.lowStock.items.map((i) => (
              <tr>
                <td>
                  <a href={`/admin/products/${i.productId}`}>{i.productName}</a>
                </td>
                <td>{i.name ?? Object.values(i.options).join(' / ') ?? '—'}</td>
                <td>{i.sku ?? '—'}</td>
                <td class="num">{i.stock}</td>
                <td class="num">{i.lowStockThreshold}</td>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}
      {v.failingWebhooks ? (
        <section aria-labelledby="hooks">
          <h2 id="hooks">Failing webhook endpoints</h2>
          <Table caption="Failing webhook endpoints" head={['Endpoint', 'State', 'Failing since']} count={v.failingWebhooks.length} empty="Every endpoint is healthy.">
            {v.failingWebhooks.map((w) => (
              <tr>
                <td>
                  <a href={`/admin/webhooks/${w.id}`}>{w.url}</a>
                </td>
                <td>{w.disabledAt ? <Badge value="disabled" /> : <Badge value="failed" />}</td>
                <td>{when(w.failingSince ?? w.disabledAt)}</td>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}
    </>
  );
}

function SalesCard(s: NonNullable<DashboardView['sales']> & { money: Money }) {
  const money = s.money;
  const best = s.days.reduce((a, b) => (b.sales > a.sales ? b : a), s.days[0] ?? { day: '', sales: 0 });
  const summary = `Sales per day over the last ${s.days.length} days: ${money(s.total, s.currency)} in all${best.sales > 0 ? `, highest ${money(best.sales, s.currency)} on ${best.day}` : ''}.`;
  return (
    <div class="card">
      <div class="muted">
        Sales, last {s.days.length} days: {s.orders} order{s.orders === 1 ? '' : 's'} in {s.currency}, paid or not; cancelled ones left out
      </div>
      <div class="stat">{money(s.total, s.currency)}</div>
      <Sparkline summary={summary} values={s.days.map((d) => d.sales)} />
      <a href="/admin/reports">Reports</a>
    </div>
  );
}
