import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderLineRow, orderLines, type OrderRow, orderStatusHistory, orders } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { type FieldTree, listPlan, type ParsedListQuery, selects } from '../../lib/query';
import { ALL_ORDERS, lineCondition, orderCondition, type OrderReach } from './orders.access';
import { orderMoney, vendorLinesTotal } from './order-money';
import { shippingMethodOf } from './order-shipping';
import { orderPromotions } from './order-promotions';
import { orderListQuery } from './orders.query';
import type { Order, OrderDetail, PaymentStatus } from './orders.schemas';
import { groupBy } from '../../lib/group-by';
import { paidInFull } from '../ledger';

type HistoryRow = typeof orderStatusHistory.$inferSelect;

export function paymentStatus(order: Pick<OrderRow, 'total' | 'amountPaid' | 'amountRefunded'>): PaymentStatus {
  if (order.amountRefunded > 0) return order.amountRefunded >= order.amountPaid ? 'refunded' : 'partially_refunded';
  if (paidInFull(order)) return 'paid';
  return order.amountPaid > 0 ? 'partially_paid' : 'unpaid';
}

/** The order on the wire; `reach` decides its amounts (order-money.ts): a vendor's are its lines'. */
export function toOrder(row: OrderRow, lines: OrderLineRow[], reach: OrderReach = ALL_ORDERS): Order {
  const money = (minor: number) => toMajor(minor, row.minorUnits);
  return {
    id: row.id,
    number: row.number!,
    customerId: row.customerId,
    email: row.email,
    status: row.status,
    currency: row.currency,
    pricesIncludeTax: row.pricesIncludeTax,
    ...orderMoney(row, lines, reach),
    paymentStatus: paymentStatus(row),
    couponCode: row.couponCode,
    promotions: reach.kind === 'vendor' ? [] : orderPromotions(row),
    shippingMethod: reach.kind === 'vendor' ? null : shippingMethodOf(row),
    shippingAddress: row.shippingAddress ?? null,
    billingAddress: row.billingAddress ?? null,
    notes: row.notes,
    lines: lines.map((line) => ({
      id: line.id,
      productId: line.productId,
      variantId: line.variantId,
      name: line.name,
      sku: line.sku,
      options: line.options,
      quantity: line.quantity,
      unitPrice: money(line.unitPrice),
      subtotal: money(line.subtotal),
      discount: money(line.discount),
      promotions: line.promotions.map((p) => ({ ...p, amount: money(p.amount) })),
      tax: money(line.tax),
      taxAmount: money(line.tax),
      taxRate: line.taxRate === null ? null : Number(line.taxRate),
      taxClass: line.taxClass,
      total: money(line.total),
      quantityShipped: line.quantityShipped,
      quantityDelivered: line.quantityDelivered,
      quantityReturned: line.quantityReturned,
      quantityRefunded: line.quantityRefunded,
    })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    cancelledAt: row.cancelledAt,
  };
}

interface Window {
  where: SQL | undefined;
  /** Every order the list matches, for its total, when the page's rows are fewer (listPlan); else `where`. */
  matching?: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

interface LoadOptions {
  selection?: FieldTree;
  withTotal?: boolean;
  withHistory?: boolean;
}

/**
 * One window of orders with their lines (and, for a single read, history) in a single D1 round
 * trip: the related rows are selected by a subquery over the same window, the total is counted in
 * SQL in the same batch, and what the selection leaves out is not read.
 */
async function loadOrders(db: Database, reach: OrderReach, window: Window, options: LoadOptions) {
  const { selection, withTotal = false, withHistory = false } = options;
  const pageIds = db
    .select({ id: orders.id })
    .from(orders)
    .where(window.where)
    .orderBy(...window.orderBy)
    .limit(window.limit)
    .offset(window.offset);
  const rowsQuery = db
    .select()
    .from(orders)
    .where(window.where)
    .orderBy(...window.orderBy)
    .limit(window.limit)
    .offset(window.offset);
  const related = {
    // A vendor's amounts are sums of its lines, so its lines are read even when not selected.
    lines:
      selects(selection, 'lines') || reach.kind === 'vendor'
        ? db
            .select()
            .from(orderLines)
            .where(and(inArray(orderLines.orderId, pageIds), lineCondition(reach)))
            .orderBy(asc(orderLines.id))
        : undefined,
    history:
      withHistory && selects(selection, 'history')
        ? db.select().from(orderStatusHistory).where(inArray(orderStatusHistory.orderId, pageIds)).orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id))
        : undefined,
    total: withTotal
      ? db
          .select({ total: count() })
          .from(orders)
          .where('matching' in window ? window.matching : window.where)
      : undefined,
  };
  const names = (Object.keys(related) as (keyof typeof related)[]).filter((name) => related[name]);
  const results = (await db.batch([rowsQuery, ...names.map((name) => related[name]!)] as unknown as [typeof rowsQuery])) as unknown[];
  const fetched = Object.fromEntries(names.map((name, i) => [name, results[i + 1]])) as {
    lines?: OrderLineRow[];
    history?: HistoryRow[];
    total?: { total: number }[];
  };
  const rows = results[0] as OrderRow[];
  const linesByOrder = groupBy(fetched.lines ?? [], (l) => l.orderId);
  const historyByOrder = groupBy(fetched.history ?? [], (h) => h.orderId);
  const items = rows.map((row) => {
    const order = toOrder(row, linesByOrder.get(row.id) ?? [], reach);
    if (!withHistory) return order;
    const history = (historyByOrder.get(row.id) ?? []).map(({ orderId: _, ...h }) => h);
    return { ...order, history } as OrderDetail;
  });
  return { items, total: fetched.total?.[0]?.total ?? rows.length };
}

/** The list's sort columns for `reach`: a vendor sorts by the total it is shown (its lines'). */
const sortableFor = (reach: OrderReach) =>
  reach.kind === 'vendor' ? { ...orderListQuery, sortable: { ...orderListQuery.sortable, total: vendorLinesTotal(reach.vendorId) } } : orderListQuery;

export async function listOrders(db: Database, query: ParsedListQuery<typeof orderListQuery.filters>, reach: OrderReach) {
  const plan = listPlan(sortableFor(reach), query, [orderCondition(reach)]);
  return loadOrders(db, reach, plan, { selection: query.fields, withTotal: true });
}

/** An order named in a path: its id (`ord_…`) or its number (`1001`, or `#1001` URL-encoded). */
export function orderRef(ref: string): SQL {
  const number = /^#?(\d{1,15})$/.exec(ref)?.[1];
  return number ? eq(orders.number, Number(number)) : eq(orders.id, ref);
}

/**
 * The stored order named by `ref` (id or number) within `reach`; 404 when there is none. A plain
 * select: the relational query API would render the columns of another table in `reach` (a vendor's
 * order_lines subquery) as the order's, and fail.
 */
export async function findOrder(db: Database, ref: string, reach: SQL | undefined): Promise<OrderRow> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(orderRef(ref), reach))
    .limit(1);
  if (!order) throw ApiError.notFound('Order', ref);
  return order;
}

export async function getOrder(db: Database, id: string, reach: OrderReach, selection?: FieldTree): Promise<OrderDetail> {
  const where = and(orderRef(id), orderCondition(reach));
  const { items } = await loadOrders(db, reach, { where, orderBy: [asc(orders.id)], limit: 1, offset: 0 }, { selection, withHistory: true });
  const order = items[0];
  if (!order) throw ApiError.notFound('Order', id);
  return order as OrderDetail;
}

/** The stored order and all its lines, for a change; 404 when out of reach. */
export async function orderForChange(db: Database, id: string, reach: OrderReach): Promise<{ order: OrderRow; lines: OrderLineRow[] }> {
  const [found, lines] = await db.batch([
    db
      .select()
      .from(orders)
      .where(and(orderRef(id), orderCondition(reach))),
    db
      .select()
      .from(orderLines)
      .where(inArray(orderLines.orderId, db.select({ id: orders.id }).from(orders).where(orderRef(id))))
      .orderBy(asc(orderLines.id)),
  ]);
  if (!found[0]) throw ApiError.notFound('Order', id);
  return { order: found[0], lines };
}
