import { cardValue, completedRefund, type Ledger, settledPayment } from './money-ledger';

/**
 * The conservation invariants of the store's money (issue 47), checked on a ledger (money-ledger.ts)
 * against what the run did. Each broken one is a sentence with the amounts, so a failing run says
 * where money was made or lost; none holds an opinion on which request answered what.
 */

export interface Expected {
  customerId: string;
  giftCardProducts: Set<string>;
  stockAtStart: number;
  /** Per variant: units the run's orders took, and units cancellations and returns put back. */
  stock: Map<string, { sold: number; restocked: number }>;
  /** Per currency: the credit staff added to (or took from) the customer. */
  adjustments: Map<string, number>;
}

const money = (minor: number) => (minor / 100).toFixed(2);
const sum = <T>(rows: T[], of: (row: T) => number) => rows.reduce((total, row) => total + of(row), 0);
/** a / b rounded half up, in whole minor units, as refunds by line round (docs/refunds.md). */
const halfUp = (a: number, b: number) => Math.floor((2 * a + b) / (2 * b));

/**
 * The most one unit of a line of `quantity` units for `total` was paid, to the cent: the total shared
 * evenly (rounded up), or what a refund by line gives the line's last unit (each other unit total /
 * quantity rounded half up, the last what is left), whichever is more.
 */
export function paidPerUnit(total: number, quantity: number): number {
  if (quantity <= 1) return total;
  return Math.max(Math.ceil(total / quantity), total - (quantity - 1) * halfUp(total, quantity));
}

export function conservationProblems(ledger: Ledger, expected: Expected): string[] {
  return [
    ...orderProblems(ledger),
    ...refundProblems(ledger),
    ...boughtCardProblems(ledger, expected),
    ...cardProblems(ledger),
    ...creditProblems(ledger, expected),
    ...stockProblems(ledger, expected),
  ];
}

/** Per order, paid − refunded is what its payments hold, and its status agrees with its money. */
function orderProblems(ledger: Ledger): string[] {
  const problems: string[] = [];
  for (const o of ledger.orders) {
    const own = ledger.payments.filter((p) => p.orderId === o.id);
    const settled = own.filter(settledPayment);
    const paid = sum(settled, (p) => p.amount);
    const refunded = sum(settled, (p) => p.amountRefunded);
    const at = `order ${o.id} (${o.status}, total ${money(o.total)})`;
    if (o.amountPaid !== paid) problems.push(`${at}: amountPaid ${money(o.amountPaid)}, but its payments took ${money(paid)}`);
    if (o.amountRefunded !== refunded) problems.push(`${at}: amountRefunded ${money(o.amountRefunded)}, but its payments gave back ${money(refunded)}`);
    if (o.amountPaid > o.total) problems.push(`${at}: paid ${money(o.amountPaid)}, more than its total`);
    if (o.amountRefunded > o.amountPaid) problems.push(`${at}: refunded ${money(o.amountRefunded)}, more than the ${money(o.amountPaid)} paid`);
    if (own.some((p) => p.status === 'pending')) problems.push(`${at}: a payment is still pending after its request`);
    if (o.status === 'cancelled' && o.amountPaid > o.amountRefunded) problems.push(`${at}: cancelled holding ${money(o.amountPaid - o.amountRefunded)}`);
    // A total of 0.00 may stay pending or be settled at once: both are allowed.
    if (o.status === 'pending' && o.total > 0 && o.amountPaid >= o.total) problems.push(`${at}: paid in full but still pending`);
    if (['processing', 'shipped', 'completed'].includes(o.status) && o.amountPaid < o.total) problems.push(`${at}: moved on with only ${money(o.amountPaid)} paid`);
    if (o.status === 'refunded' && o.amountRefunded < o.amountPaid) problems.push(`${at}: refunded with only ${money(o.amountRefunded)} of ${money(o.amountPaid)} given back`);
  }
  return problems;
}

/** No refund exceeds what was paid: per payment, per line (units and money), and for shipping. */
function refundProblems(ledger: Ledger): string[] {
  const problems: string[] = [];
  for (const p of ledger.payments) {
    const given = sum(
      ledger.refunds.filter((r) => r.paymentId === p.id && completedRefund(r)),
      (r) => r.amount,
    );
    const at = `payment ${p.id} (${p.provider}, ${p.status}, ${money(p.amount)})`;
    if (p.amountRefunded !== given) problems.push(`${at}: amountRefunded ${money(p.amountRefunded)}, but its completed refunds gave ${money(given)}`);
    if (given > p.amount) problems.push(`${at}: refunded ${money(given)}, more than it took`);
    if (p.amount > 0 && given === p.amount && p.status !== 'refunded') problems.push(`${at}: refunded in full but ${p.status}`);
    if (given > 0 && given < p.amount && p.status !== 'partially_refunded') problems.push(`${at}: refunded in part but ${p.status}`);
  }
  for (const r of ledger.refunds.filter((r) => r.status === 'pending')) problems.push(`refund ${r.id}: still pending after its request`);
  const held = new Set(ledger.refunds.filter((r) => r.status !== 'failed').map((r) => r.id));
  for (const l of ledger.lines) {
    const own = ledger.refundLines.filter((rl) => rl.orderLineId === l.id && held.has(rl.refundId));
    const units = sum(own, (rl) => rl.quantity);
    const amount = sum(own, (rl) => rl.amount);
    const at = `line ${l.id} (${l.quantity} × ${money(l.unitPrice)}, total ${money(l.total)})`;
    if (l.quantityRefunded !== units) problems.push(`${at}: quantityRefunded ${l.quantityRefunded}, but its refunds name ${units}`);
    if (units > l.quantity) problems.push(`${at}: ${units} units refunded`);
    if (amount > l.total) problems.push(`${at}: ${money(amount)} refunded, more than was paid for it`);
  }
  for (const o of ledger.orders) {
    const shipping = sum(
      ledger.refunds.filter((r) => r.orderId === o.id && completedRefund(r)),
      (r) => r.shippingAmount,
    );
    const charged = o.shippingTotal + (o.pricesIncludeTax ? 0 : o.shippingTax);
    if (shipping > charged) problems.push(`order ${o.id}: ${money(shipping)} of shipping refunded, more than the ${money(charged)} charged`);
  }
  return problems;
}

/**
 * A bought gift card is worth at most what was paid for its unit; a line's cards together, with what
 * refunds by line gave back of it, at most what was paid for the line (and, once the order was paid
 * in full, at least that less the line's tax); and an order's refunds with what its cards are still worth
 * never exceed what it was paid. A card's worth is its own value (money-ledger.ts cardValue): what
 * it was issued for less what was taken back, however much of it was spent.
 */
function boughtCardProblems(ledger: Ledger, expected: Expected): string[] {
  const problems: string[] = [];
  const held = new Set(ledger.refunds.filter((r) => r.status !== 'failed').map((r) => r.id));
  const worthOfOrder = new Map<string, number>();
  for (const l of ledger.lines.filter((line) => expected.giftCardProducts.has(line.productId))) {
    const order = ledger.orders.find((o) => o.id === l.orderId)!;
    const cards = ledger.cards.filter((c) => c.orderLineId === l.id);
    const at = `gift-card line ${l.id} of order ${order.id} (${order.status}; ${l.quantity} × ${money(l.unitPrice)}, ${money(l.discount)} off, paid ${money(l.total)} with ${money(l.tax)} tax)`;
    if (cards.length > l.quantity) problems.push(`${at}: ${cards.length} cards issued`);
    const unit = paidPerUnit(l.total, l.quantity);
    let worth = 0;
    for (const card of cards) {
      const { value } = cardValue(ledger, card);
      worth += value;
      if (card.initialAmount > unit) problems.push(`${at}: card ${card.id} issued for ${money(card.initialAmount)}, more than the ${money(unit)} paid for its unit`);
      if (value > unit) problems.push(`${at}: card ${card.id} worth ${money(value)}, more than the ${money(unit)} paid for its unit`);
    }
    worthOfOrder.set(order.id, (worthOfOrder.get(order.id) ?? 0) + worth);
    const refunded = sum(
      ledger.refundLines.filter((rl) => rl.orderLineId === l.id && held.has(rl.refundId)),
      (rl) => rl.amount,
    );
    const given = `its cards are worth ${money(worth)} and refunds gave back ${money(refunded)} of it: ${money(worth + refunded)} for ${money(l.total)} paid`;
    const paidInFull = ['processing', 'shipped', 'completed', 'refunded'].includes(order.status);
    // Below: a paid line may issue cards worth what was paid less its tax (money the store owes the tax office), not less.
    if (worth + refunded > l.total || (paidInFull && worth + refunded < l.total - l.tax)) problems.push(`${at}: ${given}`);
  }
  for (const [orderId, worth] of worthOfOrder) {
    const o = ledger.orders.find((order) => order.id === orderId)!;
    if (worth + o.amountRefunded > o.amountPaid) {
      problems.push(`order ${o.id} (${o.status}): its gift cards are worth ${money(worth)} and ${money(o.amountRefunded)} was refunded, more than the ${money(o.amountPaid)} paid`);
    }
  }
  return problems;
}

/** Every gift card's balance + spent = issued: its transactions add up, and its spending is its payments'. */
function cardProblems(ledger: Ledger): string[] {
  const problems: string[] = [];
  for (const card of ledger.cards) {
    const txs = ledger.transactions.filter((t) => t.giftCardId === card.id);
    const at = `gift card ${card.id} (${card.status}, issued ${money(card.initialAmount)}, balance ${money(card.balance)})`;
    const total = sum(txs, (t) => t.amount);
    if (total !== card.balance) problems.push(`${at}: its transactions add up to ${money(total)}`);
    if (card.balance < 0) problems.push(`${at}: below zero`);
    const issued = txs.filter((t) => t.kind === 'issued');
    if (issued.length !== 1 || issued[0]!.amount !== card.initialAmount) problems.push(`${at}: issued by ${issued.map((t) => money(t.amount)).join(' + ') || 'nothing'}`);
    const paidBy = ledger.payments.filter((p) => p.provider === 'gift_card' && p.providerReference === card.id);
    const ids = new Set(paidBy.map((p) => p.id));
    const spent = -sum(
      txs.filter((t) => t.paymentId && ids.has(t.paymentId) && t.amount < 0),
      (t) => t.amount,
    );
    const charged = sum(paidBy.filter(settledPayment), (p) => p.amount);
    if (spent !== charged) problems.push(`${at}: spent ${money(spent)}, but its payments took ${money(charged)}`);
    const givenBack = sum(
      txs.filter((t) => t.paymentId && ids.has(t.paymentId) && t.amount > 0),
      (t) => t.amount,
    );
    const refundedToCard = sum(
      ledger.refunds.filter((r) => ids.has(r.paymentId) && completedRefund(r) && r.destination === 'payment'),
      (r) => r.amount,
    );
    if (givenBack !== refundedToCard) problems.push(`${at}: ${money(givenBack)} given back, but refunds to it were ${money(refundedToCard)}`);
    const { value, spentNet } = cardValue(ledger, card);
    if (card.balance + spentNet !== value) problems.push(`${at}: balance + spent ${money(card.balance + spentNet)} is not its value ${money(value)}`);
    if (value > card.initialAmount || value < 0) problems.push(`${at}: worth ${money(value)}`);
  }
  return problems;
}

/** Store credit is the sum of its ledger, which is what staff added, refunds gave and payments spent. */
function creditProblems(ledger: Ledger, expected: Expected): string[] {
  const problems: string[] = [];
  const theirs = new Set(ledger.orders.filter((o) => o.customerId === expected.customerId).map((o) => o.id));
  const currencies = new Set([...ledger.creditBalances.keys(), ...ledger.creditEntries.map((e) => e.currency), ...expected.adjustments.keys()]);
  for (const currency of currencies) {
    const balance = ledger.creditBalances.get(currency) ?? 0;
    const entries = sum(
      ledger.creditEntries.filter((e) => e.currency === currency),
      (e) => e.amount,
    );
    const refundedTo = sum(
      ledger.refunds.filter((r) => theirs.has(r.orderId) && r.currency === currency && completedRefund(r) && r.destination === 'store_credit'),
      (r) => r.amount,
    );
    const spent = sum(
      ledger.payments.filter((p) => theirs.has(p.orderId) && p.currency === currency && p.provider === 'store_credit' && settledPayment(p)),
      (p) => p.amount,
    );
    const added = expected.adjustments.get(currency) ?? 0;
    const at = `store credit in ${currency} (balance ${money(balance)})`;
    if (entries !== balance) problems.push(`${at}: its entries add up to ${money(entries)}`);
    if (balance < 0) problems.push(`${at}: below zero`);
    if (added + refundedTo - spent !== balance) {
      problems.push(`${at}: staff added ${money(added)}, refunds gave ${money(refundedTo)} and payments spent ${money(spent)}: ${money(added + refundedTo - spent)}`);
    }
  }
  return problems;
}

/** Stock = start − sold + restocked, per variant. */
function stockProblems(ledger: Ledger, expected: Expected): string[] {
  const problems: string[] = [];
  for (const [variantId, { sold, restocked }] of expected.stock) {
    const want = expected.stockAtStart - sold + restocked;
    const stock = ledger.stock.get(variantId);
    if (stock !== want) problems.push(`variant ${variantId}: stock ${stock}, not ${expected.stockAtStart} − ${sold} sold + ${restocked} restocked = ${want}`);
  }
  return problems;
}
