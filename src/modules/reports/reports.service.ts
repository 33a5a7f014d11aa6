import { and, asc, between, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { field } from '../../db/json-rows';
import { currencies, orders, productSalesDays, productSalesMonths, products, salesDays } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { defaultCurrencyCode } from '../settings';
import { roundHalfUp } from '../checkout';
import { addDays, daysBetween, monthsAndDays, periodStart, periodsOf } from './periods';
import {
  type CustomerReport,
  DEFAULT_REPORT_DAYS,
  type Interval,
  MAX_REPORT_DAYS,
  type PeriodReportInput,
  type ProductReport,
  type ProductReportInput,
  type PromotionReport,
  type PromotionReportInput,
  type SalesReport,
} from './reports.schemas';

/**
 * The reports, read from the daily aggregates the database keeps as orders and refunds are written
 * (src/db/schema/reports.ts): a year of sales is at most 366 rows, whatever the number of orders.
 */

type DayRow = typeof salesDays.$inferSelect;

interface Range {
  from: string;
  to: string;
  currency: string;
  minorUnits: number;
}

/** The range asked for (default: the last 30 days) and the currency (default: the store's) with its digits, in one round trip with `reads`. */
async function withRange<T>(
  db: Database,
  query: { from?: string; to?: string; currency?: string },
  reads: (range: Omit<Range, 'minorUnits'> & { currencySql: ReturnType<typeof sql<string>> }) => unknown[],
) {
  const to = query.to ?? new Date().toISOString().slice(0, 10);
  const from = query.from ?? addDays(to, -(DEFAULT_REPORT_DAYS - 1));
  if (from > to) throw ApiError.badParameter('from', `must be on or before 'to' (${to})`);
  if (daysBetween(from, to) >= MAX_REPORT_DAYS) throw ApiError.badParameter('from', `a report covers at most ${MAX_REPORT_DAYS} days`);
  const currencySql = query.currency ? sql<string>`${query.currency}` : defaultCurrencyCode;
  const [currency, ...rows] = (await db.batch([
    db.select({ code: currencies.code, minorUnits: currencies.minorUnits }).from(currencies).where(eq(currencies.code, currencySql)),
    ...(reads({ from, to, currency: query.currency ?? '', currencySql }) as never[]),
  ] as never)) as [{ code: string; minorUnits: number }[], ...T[]];
  if (!currency[0]) throw ApiError.badParameter('currency', `no currency '${query.currency}'`);
  return { range: { from, to, currency: currency[0].code, minorUnits: currency[0].minorUnits }, rows };
}

const dayRows = (db: Database, r: { from: string; to: string; currencySql: ReturnType<typeof sql<string>> }) =>
  db
    .select()
    .from(salesDays)
    .where(and(eq(salesDays.currency, r.currencySql), between(salesDays.day, r.from, r.to)))
    .orderBy(asc(salesDays.day));

/** Sums the day rows into the range's periods (empty ones too). */
function bucket(rows: DayRow[], range: Range, interval: Interval) {
  const periods = periodsOf(range.from, range.to, interval).map((p) => ({ ...p, sum: emptySum() }));
  const index = new Map(periods.map((p, i) => [p.key, i]));
  const totals = emptySum();
  for (const row of rows) {
    const period = periods[index.get(periodStart(row.day, interval))!]!;
    add(period.sum, row);
    add(totals, row);
  }
  return { periods, totals };
}

const SUMMED = ['orders', 'firstOrders', 'firstOrderSales', 'units', 'gross', 'discounts', 'shipping', 'tax', 'lineTaxIncluded', 'sales', 'refunds'] as const;
type Sum = Record<(typeof SUMMED)[number], number>;
const emptySum = (): Sum => Object.fromEntries(SUMMED.map((k) => [k, 0])) as Sum;
function add(into: Sum, row: Sum) {
  for (const key of SUMMED) into[key] += row[key];
}

function salesFigures(s: Sum, digits: number) {
  const money = (minor: number) => toMajor(minor, digits);
  return {
    orders: s.orders,
    units: s.units,
    gross: money(s.gross),
    discounts: money(s.discounts),
    shipping: money(s.shipping),
    tax: money(s.tax),
    refunds: money(s.refunds),
    taxIncluded: money(s.lineTaxIncluded),
    net: money(s.gross - s.discounts - s.lineTaxIncluded - s.refunds),
    sales: money(s.sales),
    averageOrderValue: money(s.orders ? roundHalfUp(s.sales, s.orders) : 0),
  };
}

function customerFigures(s: Sum, digits: number) {
  return {
    newCustomers: s.firstOrders,
    returningOrders: s.orders - s.firstOrders,
    newCustomerSales: toMajor(s.firstOrderSales, digits),
    returningCustomerSales: toMajor(s.sales - s.firstOrderSales, digits),
  };
}

/** A report per period over the day rows of the range: `figures` says what each period shows of its sums. */
async function periodReport<F>(db: Database, query: PeriodReportInput, figures: (sum: Sum, digits: number) => F) {
  const { range, rows } = await withRange<DayRow[]>(db, query, (r) => [dayRows(db, r)]);
  const { periods, totals } = bucket(rows[0]!, range, query.interval);
  return {
    currency: range.currency,
    from: range.from,
    to: range.to,
    interval: query.interval,
    totals: figures(totals, range.minorUnits),
    periods: periods.map((p) => ({ start: p.start, end: p.end, ...figures(p.sum, range.minorUnits) })),
  };
}

export const salesReport = (db: Database, query: PeriodReportInput): Promise<SalesReport> => periodReport(db, query, salesFigures);

export const customerReport = (db: Database, query: PeriodReportInput): Promise<CustomerReport> => periodReport(db, query, customerFigures);

type ProductRow = { productId: string; name: string; units: number; revenue: number; lines: number };

/**
 * Best sellers: each product's sums over the range, whole months from product_sales_months and the
 * days before and after them from product_sales_days, ranked, and only the top `limit` named (the
 * product's name now, else the one it was sold under).
 */
export async function productReport(db: Database, query: ProductReportInput): Promise<ProductReport> {
  const { range, rows } = await withRange<ProductRow[]>(db, query, (r) => {
    const { months, days } = monthsAndDays(r.from, r.to);
    const inDays = days.length
      ? sql.join(
          days.map(([a, b]) => sql`day BETWEEN ${a} AND ${b}`),
          sql` OR `,
        )
      : sql`0`;
    const order = query.sort === 'units' ? sql`units DESC, revenue DESC` : sql`revenue DESC, units DESC`;
    return [
      db
        .select({
          productId: sql<string>`top.product_id`,
          name: sql<string>`coalesce(products.name, top.name)`,
          units: sql<number>`top.units`,
          revenue: sql<number>`top.revenue`,
          lines: sql<number>`top.lines`,
        })
        .from(
          sql`(SELECT product_id, max(name) AS name, sum(units) AS units, sum(revenue) AS revenue, sum(lines) AS lines FROM (
              SELECT product_id, name, units, revenue, lines FROM ${productSalesMonths} WHERE currency = ${r.currencySql} AND month BETWEEN ${months?.[0] ?? ''} AND ${months?.[1] ?? ''}
              UNION ALL
              SELECT product_id, name, units, revenue, lines FROM ${productSalesDays} WHERE currency = ${r.currencySql} AND (${inDays})
            ) GROUP BY product_id HAVING sum(lines) > 0 AND sum(units) > 0 ORDER BY ${order}, product_id LIMIT ${query.limit}) AS top LEFT JOIN ${products} ON products.id = top.product_id`,
        )
        .orderBy(sql`${order}, top.product_id`),
    ];
  });
  return {
    currency: range.currency,
    from: range.from,
    to: range.to,
    sort: query.sort,
    products: rows[0]!.map((p) => ({ productId: p.productId, name: p.name, units: p.units, revenue: toMajor(p.revenue, range.minorUnits), lines: p.lines })),
  };
}

type PromotionRow = { promotionId: string; name: string; code: string | null; orders: number; discountTotal: number; shippingDiscount: number; sales: number };

/**
 * The promotions that took the most off: each one's entries in `orders.promotions` of the range's
 * orders (placed in it, in its currency, not cancelled), summed in one statement. No daily totals
 * here: it reads the orders of the range (by orders_created_idx), and json_each only on those that
 * applied a promotion. Name and code are those of its latest order (SQLite's bare columns beside max()).
 */
export async function promotionReport(db: Database, query: PromotionReportInput): Promise<PromotionReport> {
  const { range, rows } = await withRange<(PromotionRow & { latest: string })[]>(db, query, (r) => [
    db
      .select({
        promotionId: sql<string>`${field('promotionId')}`,
        latest: sql<string>`max(${orders.createdAt} || ${orders.id})`,
        name: sql<string>`${field('name')}`,
        code: sql<string | null>`${field('code')}`,
        orders: sql<number>`count(*)`,
        discountTotal: sql<number>`sum(${field('amount')})`.as('discount_total'),
        shippingDiscount: sql<number>`sum(${field('shippingAmount')})`,
        sales: sql<number>`sum(${orders.total})`,
      })
      .from(orders)
      .innerJoin(sql`json_each(${orders.promotions}) AS json_row`, sql`true`)
      .where(
        and(
          sql`${orders.createdAt} >= ${r.from} AND ${orders.createdAt} < ${addDays(r.to, 1)}`,
          eq(orders.currency, r.currencySql),
          sql`${orders.status} != 'cancelled' AND ${orders.promotions} != '[]'`,
        ),
      )
      .groupBy(field('promotionId'))
      .orderBy(sql`discount_total DESC, ${field('promotionId')}`)
      .limit(query.limit),
  ]);
  const money = (minor: number) => toMajor(minor, range.minorUnits);
  return {
    currency: range.currency,
    from: range.from,
    to: range.to,
    promotions: rows[0]!.map(({ latest: _, ...p }) => ({ ...p, discountTotal: money(p.discountTotal), shippingDiscount: money(p.shippingDiscount), sales: money(p.sales) })),
  };
}
