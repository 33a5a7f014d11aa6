import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now, timestamps } from './columns';
import { carts, orderLines, orders, payments, refunds } from './commerce';
import { users } from './identity';

// ---------------------------------------------------------------------------------------------
// After the sale: returns and their lines, store credit and gift cards. Money is integer minor units
// of the row's currency; every balance is kept by triggers that refuse to let it go below zero, in
// the same batch as the write that spends it (migrations/0056_after_sale.sql).

export const RETURN_STATUSES = ['requested', 'approved', 'received', 'refunded', 'rejected', 'cancelled'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_REASONS = ['too_small', 'too_large', 'damaged', 'defective', 'not_as_described', 'wrong_item', 'changed_mind', 'other'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** A return of some of an order's lines: requested by its customer (within the store's window) or by staff. */
export const returns = sqliteTable(
  'returns',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    /** The order's customer; null for a guest order. */
    customerId: text('customer_id'),
    status: text('status', { enum: RETURN_STATUSES }).notNull().default('requested'),
    note: text('note'),
    /** Staff's answer (why rejected, what to send where). */
    resolution: text('resolution'),
    /** The order an exchange created for this return, if any. */
    exchangeOrderId: text('exchange_order_id'),
    /** `user:<id>`, `key:<id>` or `system`. */
    requestedBy: text('requested_by').notNull(),
    approvedAt: text('approved_at'),
    receivedAt: text('received_at'),
    refundedAt: text('refunded_at'),
    closedAt: text('closed_at'),
    ...timestamps,
  },
  (t) => [
    index('returns_created_idx').on(t.createdAt, t.id),
    index('returns_status_created_idx').on(t.status, t.createdAt, t.id),
    index('returns_order_idx').on(t.orderId),
    index('returns_customer_created_idx').on(t.customerId, t.createdAt),
  ],
);

/**
 * A line of a return: how many of an order line come back and why. Inserting one adds its quantity
 * to order_lines.quantity_returned, which a trigger keeps at or below the quantity bought (as stock
 * is kept at or above zero); a rejected or cancelled return gives it back.
 */
export const returnLines = sqliteTable(
  'return_lines',
  {
    id: text('id').primaryKey(),
    returnId: text('return_id')
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    orderLineId: text('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    reason: text('reason', { enum: RETURN_REASONS }).notNull(),
    /** Units put back in stock when the return was received (staff choose; damaged goods are not). */
    restockedQuantity: integer('restocked_quantity').notNull().default(0),
  },
  (t) => [index('return_lines_return_idx').on(t.returnId), index('return_lines_order_line_idx').on(t.orderLineId)],
);

export const REFUND_DESTINATIONS = ['payment', 'store_credit', 'exchange'] as const;

/**
 * What a refund paid back for each line (and how many units): a refund by line. Inserting one adds
 * to order_lines.quantity_refunded, which a trigger keeps at or below the quantity bought.
 */
export const refundLines = sqliteTable(
  'refund_lines',
  {
    refundId: text('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'cascade' }),
    orderLineId: text('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    /** Minor units of the order's currency: what was paid for those units (discount and tax prorated). */
    amount: integer('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.refundId, t.orderLineId] }), index('refund_lines_order_line_idx').on(t.orderLineId)],
);

/**
 * A customer's store credit, per currency, as a ledger: every change is an entry, and the balance
 * (store_credit_balances) is their sum, kept by a trigger that refuses an entry taking it below zero.
 */
export const storeCreditEntries = sqliteTable(
  'store_credit_entries',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    /** Minor units; positive adds credit, negative spends it. */
    amount: integer('amount').notNull(),
    /** The balance right after this entry, written by the trigger. */
    balanceAfter: integer('balance_after').notNull().default(0),
    /** `refund`, `spent`, `spend_returned` (a cancelled order's), `adjustment`, or the store's words. */
    reason: text('reason').notNull(),
    note: text('note'),
    orderId: text('order_id'),
    returnId: text('return_id'),
    refundId: text('refund_id'),
    paymentId: text('payment_id'),
    /** `user:<id>`, `key:<id>` or `system`. */
    actor: text('actor').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('store_credit_entries_customer_idx').on(t.customerId, t.createdAt, t.id)],
);

export const storeCreditBalances = sqliteTable(
  'store_credit_balances',
  {
    customerId: text('customer_id').notNull(),
    currency: text('currency').notNull(),
    balance: integer('balance').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.currency] })],
);

export const GIFT_CARD_STATUSES = ['active', 'disabled'] as const;

/**
 * A gift card: its code is shown once, when issued, and kept only as a SHA-256 hash (like API keys);
 * `last4` lets staff and shoppers tell cards apart. `balance` is kept by the trigger on
 * gift_card_transactions, which refuses a transaction taking it below zero: a card is inserted at 0
 * and its `issued` transaction adds the amount, in the same batch.
 */
export const giftCards = sqliteTable(
  'gift_cards',
  {
    id: text('id').primaryKey(),
    codeHash: text('code_hash').notNull(),
    last4: text('last4').notNull(),
    currency: text('currency').notNull(),
    initialAmount: integer('initial_amount').notNull(),
    balance: integer('balance').notNull().default(0),
    status: text('status', { enum: GIFT_CARD_STATUSES }).notNull().default('active'),
    expiresAt: text('expires_at'),
    recipientEmail: text('recipient_email'),
    recipientName: text('recipient_name'),
    message: text('message'),
    /** The customer who bought it (a gift-card product), if any. */
    customerId: text('customer_id'),
    /** The order line that bought it, if it was bought (one card per unit). */
    orderId: text('order_id'),
    orderLineId: text('order_line_id'),
    /** `user:<id>`, `key:<id>` or `system` (bought). */
    issuedBy: text('issued_by').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('gift_cards_code_hash_idx').on(t.codeHash), index('gift_cards_created_idx').on(t.createdAt, t.id), index('gift_cards_order_idx').on(t.orderId)],
);

/** Every change of a gift card's balance: issued, spent by a payment, given back by a refund or cancellation, taken back when its purchase is refunded. */
export const giftCardTransactions = sqliteTable(
  'gift_card_transactions',
  {
    id: text('id').primaryKey(),
    giftCardId: text('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'cascade' }),
    /** Minor units of the card's currency; negative spends. */
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull().default(0),
    /** `issued`, `spent`, `refunded`, `adjustment`; `revoked` and `reinstated` for a bought card (src/modules/ledger/revoke-bought-cards.ts). */
    kind: text('kind').notNull(),
    orderId: text('order_id'),
    paymentId: text('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    actor: text('actor').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('gift_card_transactions_card_idx').on(t.giftCardId, t.createdAt)],
);

/** Gift cards a shopper applied to a cart, spent at checkout (in the order they were applied). */
export const cartGiftCards = sqliteTable(
  'cart_gift_cards',
  {
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    giftCardId: text('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.cartId, t.giftCardId] })],
);

export type ReturnRow = typeof returns.$inferSelect;
export type ReturnLineRow = typeof returnLines.$inferSelect;
export type RefundLineRow = typeof refundLines.$inferSelect;
export type StoreCreditEntryRow = typeof storeCreditEntries.$inferSelect;
export type GiftCardRow = typeof giftCards.$inferSelect;
export type GiftCardTransactionRow = typeof giftCardTransactions.$inferSelect;
