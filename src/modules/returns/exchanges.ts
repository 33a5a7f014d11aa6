import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, type PaymentRow, payments, type RefundRow, refundLines, refunds, returns, writeGuards } from '../../db/schema';
import { actorRef, type Principal } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor } from '../../lib/money';
import {
  amountDue,
  cardsToRevoke,
  type GiftCardSettings,
  orderNumberOf,
  recordCharge,
  recordRefund,
  type RefundByLines,
  refundByLines,
  refundCreatedData,
  refuseSpentCards,
  revocationStatements,
  spentMeanwhile,
  unchangedSince,
} from '../ledger';
import { placeOrder, ALL_ORDERS, findOrder, getOrder } from '../orders';
import { exchangeProvider, createRefund, leftToRefund, paymentToRefund, pendingRefunds } from '../payments';
import type { StripeSettings } from '../payments';
import { returnWriter } from './returns.access';
import type { Exchange, ExchangeInput } from './exchanges.schemas';
import { getReturn } from './returns.service';

/**
 * Exchanging a received return for other variants (docs/returns.md, Exchanges). The returned units
 * are worth what was paid for them, worked out as a refund by line is (refund-lines.ts). One batch,
 * the new order's own (place-order.ts), writes: the new order at today's prices in the first
 * order's currency, to its address, shipping waived; a refund of the returned lines on the first
 * order's payment with destination `exchange`, for what the new order can take of their value; an
 * `exchange` payment of that amount on the new order; and the return `refunded`, naming the new
 * order. The batch first asserts the return is still received and unexchanged, the lines not
 * refunded meanwhile and the payment still able to give the amount back (guard:return_settled), so
 * of two racing exchanges one writes and the other leaves nothing. Both rows are then completed
 * as any refund and payment are (settle.ts; reconciliation finishes them if this stops between).
 * The customer pays what the new order costs beyond the value; a value beyond its cost is refunded
 * to the payment or to store credit (`balanceTo`). Returned units of a gift-card line take their
 * value off the cards they issued in the same batch (revoke-bought-cards.ts), as a refund by line does.
 */
export async function exchangeReturn(
  db: Database,
  env: StripeSettings & GiftCardSettings,
  returnId: string,
  input: ExchangeInput,
  principal: Principal,
  { numberStart, now = new Date() }: { numberStart?: number; now?: Date } = {},
): Promise<Exchange> {
  if (returnWriter(principal).kind !== 'staff') throw ApiError.forbidden("Only staff (with 'returns:write') exchange a return");
  const current = await getReturn(db, returnId, ALL_ORDERS);
  if (current.status !== 'received' || current.exchangeOrderId) {
    throw ApiError.conflict(`Return '${returnId}' is ${current.status}: a return is exchanged once it is received, and only once`, 'status');
  }
  const order = await findOrder(db, current.orderId, undefined);
  const balanceTo = input.balanceTo ?? 'payment';
  if (balanceTo === 'store_credit' && !order.customerId) {
    throw ApiError.validation([{ field: 'balanceTo', problem: 'store credit is for orders of a customer account, and this is a guest order' }]);
  }
  const worked = await refundByLines(
    db,
    order,
    current.lines.map((l) => ({ orderLineId: l.orderLineId, quantity: l.quantity })),
    undefined,
  );
  const value = worked.lines.reduce((sum, l) => sum + l.amount, 0);
  // Returned units of a gift-card line give up what they are worth from the cards they issued (409 when one was spent).
  const { takes } = await cardsToRevoke(db, order, worked.lines);
  refuseSpentCards(takes, order.minorUnits, 'this exchange');
  const payment = await paymentToRefund(db, order, input.paymentId);
  const room = await leftToRefund(db, payment);
  const actor = actorRef(principal);
  const refundId = newId(ID_PREFIX.refund, now.getTime());
  const paymentId = newId(ID_PREFIX.payment, now.getTime());
  let credit = 0;
  const settled = () => ApiError.conflict(`Return '${returnId}' was refunded or exchanged, or payment '${payment.id}' refunded, by another request; read them again`);

  const placed = await placeOrder(
    db,
    {
      customerId: order.customerId,
      email: order.email,
      currency: order.currency,
      lines: input.lines,
      shippingAddress: order.shippingAddress,
      billingAddress: order.billingAddress,
      shippingMethodId: input.shippingMethodId ?? null,
      shippingWaived: true,
      notes: `Exchange for return ${returnId} of order ${orderNumberOf(order)}`,
      actor,
      numberStart,
      alsoWrite: (newOrder) => {
        credit = Math.min(value, newOrder.total);
        if (credit > room) {
          throw ApiError.conflict(
            `Payment '${payment.id}' has ${toMajor(room, order.minorUnits)} ${order.currency} left to refund, less than the ${toMajor(credit, order.minorUnits)} the exchange moves: name another payment (paymentId)`,
            'paymentId',
          );
        }
        const refund: RefundRow = {
          id: refundId,
          paymentId: payment.id,
          orderId: order.id,
          amount: credit,
          currency: order.currency,
          reason: `Exchanged for order ${newOrder.id} (return ${returnId})`,
          providerReference: paymentId,
          status: 'pending',
          failureReason: null,
          requestKey: null,
          destination: 'exchange',
          returnId,
          shippingAmount: 0,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        };
        return [
          ...exchangeStatements(db, { order, newOrder, returnId, payment, worked, refund, paymentId, now }),
          ...revocationStatements(db, takes, { refundId, order, actor, now, written: sql`1` }),
        ];
      },
      alsoGuards: {
        return_settled: settled,
        overrefunded_line: settled,
        refund_exceeds_payment: settled,
        insufficient_gift_card_balance: () => spentMeanwhile(db, takes, order.minorUnits, 'this exchange'),
      },
    },
    now,
  );

  const [refund, exchangePayment] = await Promise.all([
    db.query.refunds.findFirst({ where: eq(refunds.id, refundId) }),
    db.query.payments.findFirst({ where: eq(payments.id, paymentId) }),
  ]);
  await recordRefund(db, refund!, { status: 'completed', reference: `exchange_${refundId}`, failureReason: null }, { actor, now });
  if (exchangePayment) {
    await recordCharge(db, exchangeProvider, exchangePayment, { status: 'completed', reference: refundId, failureReason: null }, { actor, env, now });
  }
  const balance = await refundBalance(db, env, { order, payment, returnId, amount: value - credit, destination: balanceTo, actor, now });
  return {
    return: await getReturn(db, returnId, ALL_ORDERS),
    order: await getOrder(db, placed.order.id, ALL_ORDERS),
    value: toMajor(value, order.minorUnits),
    credit: toMajor(credit, order.minorUnits),
    amountDue: toMajor(amountDue({ total: placed.order.total, amountPaid: credit }), order.minorUnits),
    ...balance,
  };
}

interface ExchangeWrite {
  order: OrderRow;
  newOrder: OrderRow;
  returnId: string;
  payment: PaymentRow;
  worked: RefundByLines;
  refund: RefundRow;
  paymentId: string;
  now: Date;
}

/** The exchange's part of the new order's batch: the guard, the refund with its lines, the exchange payment and the settled return. */
function exchangeStatements(db: Database, { order, newOrder, returnId, payment, worked, refund, paymentId, now }: ExchangeWrite) {
  const ts = now.toISOString();
  const stillReceived = sql`(SELECT ${returns.status} = 'received' AND ${returns.exchangeOrderId} IS NULL FROM ${returns} WHERE ${returns.id} = ${returnId})`;
  const fits = sql`(SELECT ${payments.status} IN ('completed', 'partially_refunded') AND ${payments.amountRefunded} + ${pendingRefunds(payment.id)} + ${refund.amount} <= ${payments.amount}
    FROM ${payments} WHERE ${payments.id} = ${payment.id})`;
  const exchangePayment: PaymentRow = {
    id: paymentId,
    orderId: newOrder.id,
    provider: 'exchange',
    providerReference: refund.id,
    status: 'pending',
    amount: refund.amount,
    amountRefunded: 0,
    currency: newOrder.currency,
    failureReason: null,
    providerInput: { returnId, orderId: order.id, refundId: refund.id },
    requestKey: null,
    disputeStatus: null,
    createdAt: ts,
    updatedAt: ts,
  };
  return [
    db.insert(writeGuards).values({ name: 'return_settled', ok: sql`${stillReceived} AND ${fits} AND ${unchangedSince(order, worked)}` }),
    db.insert(refunds).values(refund),
    ...worked.lines.map((l) => db.insert(refundLines).values({ refundId: refund.id, orderLineId: l.orderLineId, quantity: l.quantity, amount: l.amount })),
    outboxEvent(db, 'refund.created', refundCreatedData(refund, order, worked.lines), now),
    ...(refund.amount > 0 ? [db.insert(payments).values(exchangePayment)] : []),
    db.update(returns).set({ status: 'refunded', refundedAt: ts, closedAt: ts, exchangeOrderId: newOrder.id, updatedAt: ts }).where(eq(returns.id, returnId)),
  ];
}

/** What the returned units are worth beyond the new order's cost, refunded (no lines: they went with the exchange) to the payment or store credit. */
async function refundBalance(
  db: Database,
  env: StripeSettings,
  {
    order,
    payment,
    returnId,
    amount,
    destination,
    actor,
    now,
  }: { order: OrderRow; payment: PaymentRow; returnId: string; amount: number; destination: 'payment' | 'store_credit'; actor: string; now: Date },
): Promise<Pick<Exchange, 'balanceRefund' | 'balanceRefundError'>> {
  if (amount <= 0) return { balanceRefund: null, balanceRefundError: null };
  const [freshPayment, freshOrder] = await Promise.all([db.query.payments.findFirst({ where: eq(payments.id, payment.id) }), findOrder(db, order.id, undefined)]);
  try {
    const refund = await createRefund(
      db,
      env,
      freshPayment!,
      freshOrder,
      { amount: toMajor(amount, order.minorUnits), destination, returnId, reason: `Rest of the value of return ${returnId} after its exchange` },
      { actor, now },
    );
    return { balanceRefund: refund, balanceRefundError: null };
  } catch (error) {
    // The exchange stands; what is left to give back is said, for staff to refund by hand.
    if (!(error instanceof ApiError)) throw error;
    return { balanceRefund: null, balanceRefundError: `${toMajor(amount, order.minorUnits)} ${order.currency} is still to refund: ${error.message}` };
  }
}
