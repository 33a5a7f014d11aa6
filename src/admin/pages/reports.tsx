import type { CustomerReport, ProductReport, PromotionReport, SalesReport } from '../../modules/reports/schemas';
import { INTERVALS } from '../../modules/reports/schemas';
import { BarChart } from '../components/chart';
import { Field, FormErrors, type FormState, Select } from '../components/form';
import { Stat, Table } from '../components/table';
import type { Money } from '../money';

export interface ReportsView {
  form: FormState;
  money: Money;
  currencies: string[];
  sales: SalesReport | null;
  customers: CustomerReport | null;
  products: ProductReport | null;
  promotions: PromotionReport | null;
}

const period = (p: { start: string; end: string }) => (p.start === p.end ? p.start : `${p.start} – ${p.end}`);

/** Sales over time as two charts with the table of their figures, best sellers, new versus returning customers, and discounts by promotion. */
export function ReportsPage(v: ReportsView) {
  const s = v.sales;
  const money = v.money;
  return (
    <>
      <form method="get" action="/admin/reports" class="filters" role="search" aria-label="Report range">
        <FormErrors form={v.form} />
        <Field form={v.form} name="from" label="From (UTC)" type="date" />
        <Field form={v.form} name="to" label="To (UTC)" type="date" />
        <Select form={v.form} name="interval" label="By" options={INTERVALS} />
        <Select form={v.form} name="currency" label="Currency" options={v.currencies} />
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      {s ? (
        <>
          <div class="grid">
            <Stat label="Sales" value={money(s.totals.sales, s.currency)} />
            <Stat label="Orders" value={String(s.totals.orders)} />
            <Stat label="Average order" value={money(s.totals.averageOrderValue, s.currency)} />
            <Stat label="Net (after discounts and refunds)" value={money(s.totals.net, s.currency)} />
          </div>
          <section class="card" aria-labelledby="revenue-h">
            <h2 id="revenue-h">Sales</h2>
            <BarChart
              id="revenue"
              title={`Sales in ${s.currency} by ${s.interval}, ${s.from} to ${s.to}`}
              summary={summary(
                s.periods.map((p) => ({ label: period(p), value: p.sales })),
                (n) => money(n, s.currency),
              )}
              points={s.periods.map((p) => ({ label: p.start, value: p.sales }))}
              format={(n) => money(n, s.currency)}
            />
          </section>
          <section class="card" aria-labelledby="orders-h">
            <h2 id="orders-h">Orders</h2>
            <BarChart
              id="orders"
              title={`Orders by ${s.interval}, ${s.from} to ${s.to}`}
              summary={summary(
                s.periods.map((p) => ({ label: period(p), value: p.orders })),
                String,
              )}
              points={s.periods.map((p) => ({ label: p.start, value: p.orders }))}
              counts
            />
          </section>
          <h2>Figures</h2>
          <Table
            caption="Sales by period"
            head={['Period', 'Orders', 'Units', 'Gross', 'Discounts', 'Shipping', 'Tax', 'Refunds', 'Net', 'Sales', 'Average order']}
            count={s.periods.length}
          >
            {s.periods.map((p) => (
              <tr>
                <th scope="row">{period(p)}</th>
                <td class="num">{p.orders}</td>
                <td class="num">{p.units}</td>
                {[p.gross, p.discounts, p.shipping, p.tax, p.refunds, p.net, p.sales, p.averageOrderValue].map((n) => (
                  <td class="num">{money(n, s.currency)}</td>
                ))}
              </tr>
            ))}
          </Table>
        </>
      ) : null}
      <div class="two">
        {v.products ? (
          <section aria-labelledby="top-h">
            <h2 id="top-h">Best sellers</h2>
            <Table caption="Best sellers by revenue" head={['Product', 'Units', 'Revenue']} count={v.products.products.length} empty="Nothing sold in this range.">
              {v.products.products.map((p) => (
                <tr>
                  <td>
                    <a href={`/admin/products/${p.productId}`}>{p.name}</a>
                  </td>
                  <td class="num">{p.units}</td>
                  <td class="num">{money(p.revenue, v.products!.currency)}</td>
                </tr>
              ))}
            </Table>
          </section>
        ) : null}
        {v.customers ? (
          <section aria-labelledby="customers-h">
            <h2 id="customers-h">New and returning customers</h2>
            <dl class="facts">
              <dt>New customers</dt>
              <dd>{v.customers.totals.newCustomers}</dd>
              <dt>Their sales</dt>
              <dd>{money(v.customers.totals.newCustomerSales, v.customers.currency)}</dd>
              <dt>Orders from returning customers</dt>
              <dd>{v.customers.totals.returningOrders}</dd>
              <dt>Their sales</dt>
              <dd>{money(v.customers.totals.returningCustomerSales, v.customers.currency)}</dd>
            </dl>
          </section>
        ) : null}
      </div>
      {v.promotions ? <PromotionsSection report={v.promotions} money={money} /> : null}
    </>
  );
}

function PromotionsSection({ report, money }: { report: PromotionReport; money: Money }) {
  return (
    <section aria-labelledby="promotions-h">
      <h2 id="promotions-h">Promotions</h2>
      <Table
        caption="Discounts by promotion and coupon, most first"
        head={['Promotion', 'Code', 'Orders', 'Discounts', 'Of which shipping', 'Sales']}
        count={report.promotions.length}
        empty="No promotion applied in this range."
      >
        {report.promotions.map((p) => (
          <tr>
            <td>{p.name}</td>
            <td>{p.code ?? '—'}</td>
            <td class="num">{p.orders}</td>
            {[p.discountTotal, p.shippingDiscount, p.sales].map((n) => (
              <td class="num">{money(n, report.currency)}</td>
            ))}
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** One sentence for a screen reader: the total, and the best period. */
function summary(points: { label: string; value: number }[], format: (n: number) => string): string {
  if (!points.length) return 'No periods.';
  const total = points.reduce((n, p) => n + p.value, 0);
  const best = points.reduce((a, b) => (b.value > a.value ? b : a));
  return `${points.length} periods, ${format(Math.round(total * 100) / 100)} in all; highest ${format(best.value)} (${best.label}). The table below lists every period.`;
}
