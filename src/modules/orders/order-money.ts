import { sql, type SQL } from 'drizzle-orm';
import { type OrderLineRow, type OrderRow, orderLines, orders } from '../../db/schema';
import { toMajor } from '../../lib/money';
import { taxBreakdown } from '../checkout';
import type { OrderReach } from './orders.access';
import { amountDue } from '../ledger';

/**
 * The amounts of an order a caller is shown (docs/api.md, Vendors and orders). Staff and the
 * customer see the order's own. A vendor sees its lines only: each line keeps the discount and tax
 * the order gave it when it was priced (src/modules/checkout/pricing.ts, integer minor units, half-up per line),
 * so its amounts (and tax breakdown) are sums of its lines, exact, with nothing prorated; shipping (and its tax) is the
 * order's and charged to no vendor's lines, so 0. Paid, refunded and due are null to a vendor:
 * payments are for the whole order, and any share of them would tell what other vendors' lines cost.
 */
export function orderMoney(row: OrderRow, lines: OrderLineRow[], reach: OrderReach) {
  const money = (minor: number) => toMajor(minor, row.minorUnits);
  const vendor = reach.kind === 'vendor';
  const taxed = lines.map((l) => ({ rate: l.taxRate, charged: l.subtotal - l.discount, tax: l.tax }));
  if (!vendor) taxed.push({ rate: row.shippingTaxRate, charged: row.shippingTotal, tax: row.shippingTax });
  const breakdown = taxBreakdown(taxed, row.pricesIncludeTax, money);
  if (vendor) {
    const sum = (pick: (line: OrderLineRow) => number) => lines.reduce((total, line) => total + pick(line), 0);
    return {
      subtotal: money(sum((l) => l.subtotal)),
      discountTotal: money(sum((l) => l.discount)),
      shippingTotal: 0,
      shippingTax: 0,
      taxTotal: money(sum((l) => l.tax)),
      taxBreakdown: breakdown,
      total: money(sum((l) => l.total)),
      amountPaid: null,
      amountRefunded: null,
      amountDue: null,
    };
  }
  return {
    subtotal: money(row.subtotal),
    discountTotal: money(row.discountTotal),
    shippingTotal: money(row.shippingTotal),
    shippingTax: money(row.shippingTax),
    taxTotal: money(row.taxTotal),
    taxBreakdown: breakdown,
    total: money(row.total),
    amountPaid: money(row.amountPaid),
    amountRefunded: money(row.amountRefunded),
    amountDue: money(amountDue(row)),
  };
}

/** The total a vendor is shown, in SQL, so that a vendor's `sort=total` orders by it and not by the whole order's. */
export const vendorLinesTotal = (vendorId: string): SQL =>
  sql`(SELECT SUM(${orderLines.total}) FROM ${orderLines} WHERE ${orderLines.orderId} = ${orders.id} AND ${orderLines.vendorId} = ${vendorId})`;
