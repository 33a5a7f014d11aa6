import { eq, inArray, or } from 'drizzle-orm';
import {
  type GiftCardRow,
  type GiftCardTransactionRow,
  giftCards,
  giftCardTransactions,
  type OrderLineRow,
  type OrderRow,
  orderLines,
  orders,
  type PaymentRow,
  payments,
  productVariants,
  type RefundLineRow,
  type RefundRow,
  refundLines,
  refunds,
  type StoreCreditEntryRow,
  storeCreditBalances,
  storeCreditEntries,
} from '../../src/db/schema';
import { db } from '../helpers';

/**
 * Everything that holds money or stock for one run of the conservation property, read from D1 in
 * one batch: the run's orders with their lines, payments, refunds and refund lines, the gift cards
 * it issued or bought with their transactions, its customer's store credit, and its variants' stock.
 * Amounts are minor units, as stored.
 */
export interface Ledger {
  orders: OrderRow[];
  lines: OrderLineRow[];
  payments: PaymentRow[];
  refunds: RefundRow[];
  refundLines: RefundLineRow[];
  cards: GiftCardRow[];
  transactions: GiftCardTransactionRow[];
  creditEntries: StoreCreditEntryRow[];
  creditBalances: Map<string, number>;
  stock: Map<string, number>;
}

export interface LedgerScope {
  orderIds: string[];
  /** Cards staff issued in the run; the cards its orders bought are found by their order. */
  cardIds: string[];
  customerId: string;
  variantIds: string[];
}

/** `inArray` of no values matches nothing; an id no row has keeps the statement the same. */
const some = (ids: string[]) => (ids.length ? ids : ['-']);

export async function readLedger(scope: LedgerScope): Promise<Ledger> {
  const d = db();
  const orderIds = some(scope.orderIds);
  const runCards = or(inArray(giftCards.id, some(scope.cardIds)), inArray(giftCards.orderId, orderIds));
  const [orderRows, lineRows, paymentRows, refundRows, refundLineRows, cardRows, transactionRows, entryRows, balanceRows, variantRows] = await d.batch([
    d.select().from(orders).where(inArray(orders.id, orderIds)),
    d.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)),
    d.select().from(payments).where(inArray(payments.orderId, orderIds)),
    d.select().from(refunds).where(inArray(refunds.orderId, orderIds)),
    d.select({ line: refundLines }).from(refundLines).innerJoin(refunds, eq(refunds.id, refundLines.refundId)).where(inArray(refunds.orderId, orderIds)),
    d.select().from(giftCards).where(runCards),
    d.select({ tx: giftCardTransactions }).from(giftCardTransactions).innerJoin(giftCards, eq(giftCards.id, giftCardTransactions.giftCardId)).where(runCards),
    d.select().from(storeCreditEntries).where(eq(storeCreditEntries.customerId, scope.customerId)),
    d.select().from(storeCreditBalances).where(eq(storeCreditBalances.customerId, scope.customerId)),
    d
      .select({ id: productVariants.id, stock: productVariants.stock })
      .from(productVariants)
      .where(inArray(productVariants.id, some(scope.variantIds))),
  ]);
  return {
    orders: orderRows,
    lines: lineRows,
    payments: paymentRows,
    refunds: refundRows,
    refundLines: refundLineRows.map((r) => r.line),
    cards: cardRows,
    transactions: transactionRows.map((r) => r.tx),
    creditEntries: entryRows,
    creditBalances: new Map(balanceRows.map((b) => [b.currency, b.balance])),
    stock: new Map(variantRows.map((v) => [v.id, v.stock])),
  };
}

/** Payments and refunds that hold money: neither failed nor (for a payment) still waiting on its provider. */
export const settledPayment = (p: PaymentRow) => p.status === 'completed' || p.status === 'partially_refunded' || p.status === 'refunded';
export const refundable = (p: PaymentRow) => p.status === 'completed' || p.status === 'partially_refunded';
export const completedRefund = (r: RefundRow) => r.status === 'completed';

/** What a payment can still give back. */
export const leftOn = (ledger: Ledger, p: PaymentRow) =>
  p.amount - p.amountRefunded - ledger.refunds.filter((r) => r.paymentId === p.id && r.status === 'pending').reduce((sum, r) => sum + r.amount, 0);

/** What an order still owes. */
export const dueOn = (o: OrderRow) => o.total - o.amountPaid;

export const linesOf = (ledger: Ledger, orderId: string) => ledger.lines.filter((l) => l.orderId === orderId).sort((a, b) => a.id.localeCompare(b.id));

/** A card's own value: its transactions less the spending of payments and what their refunds gave back (which name a payment it paid). */
export function cardValue(ledger: Ledger, card: GiftCardRow): { value: number; spentNet: number } {
  const paidBy = new Set(ledger.payments.filter((p) => p.provider === 'gift_card' && p.providerReference === card.id).map((p) => p.id));
  let value = 0;
  let spentNet = 0;
  for (const tx of ledger.transactions.filter((t) => t.giftCardId === card.id)) {
    if (tx.paymentId && paidBy.has(tx.paymentId)) spentNet -= tx.amount;
    else value += tx.amount;
  }
  return { value, spentNet };
}

/**
 * What the ledger shows of money and stock, without what a refused request may leave behind by
 * design (a declined payment's `failed` row, a refused refund's `failed` row) or what moves with
 * every write (timestamps): two views are equal when nothing of value changed between them.
 */
export function moneyView(ledger: Ledger) {
  return {
    orders: ledger.orders.map((o) => [o.id, o.status, o.total, o.amountPaid, o.amountRefunded]).sort(),
    lines: ledger.lines.map((l) => [l.id, l.quantityRefunded, l.quantityReturned, l.quantityShipped]).sort(),
    payments: ledger.payments
      .filter((p) => p.status !== 'failed')
      .map((p) => [p.id, p.status, p.amount, p.amountRefunded])
      .sort(),
    refunds: ledger.refunds
      .filter((r) => r.status !== 'failed')
      .map((r) => [r.id, r.status, r.amount])
      .sort(),
    refundLines: ledger.refundLines.map((l) => [l.refundId, l.orderLineId, l.quantity, l.amount]).sort(),
    cards: ledger.cards.map((c) => [c.id, c.status, c.balance, c.initialAmount]).sort(),
    transactions: ledger.transactions.map((t) => [t.id, t.amount]).sort(),
    credit: [...ledger.creditBalances].sort(),
    creditEntries: ledger.creditEntries.map((e) => [e.id, e.amount]).sort(),
    stock: [...ledger.stock].sort(),
  };
}
