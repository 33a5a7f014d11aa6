import { asc, eq, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { inJson } from '../db/json-rows';
import {
  cartLines,
  carts,
  currencies,
  orderLines,
  orders,
  productVariants,
  products,
  storeSettings,
  users,
  type CartRow,
  type OrderLineRow,
  type OrderRow,
  type PostalAddress,
  type UserRow,
} from '../db/schema';
import { RECOVERY_DAYS, recoveryUrl } from '../modules/carts';
import { REDACTED } from './redaction';
import { formatMinor, formatMoney, isoDigits } from '../lib/money';
import type { TemplateData } from './render';
import { normalisePhone } from '../lib/phone';

/** Who a customer message goes to, and what they agreed to. */
export interface Contact {
  email: string | null;
  /** Digits with a leading +, as SMS providers want them; null when there is none. */
  phone: string | null;
  /** The account; null for a guest, who gets transactional email only. */
  userId: string | null;
  smsOptOut: boolean;
  marketingEmailOptOut: boolean;
  name: string | null;
}

export interface EventContext {
  data: TemplateData;
  /** For customer templates; absent when the event concerns no customer. */
  customer?: Contact;
}

type ContactUser = Pick<UserRow, 'id' | 'email' | 'phone' | 'name' | 'smsOptOut' | 'marketingEmailOptOut'>;

export function contactOf(user: ContactUser | undefined, fallback: { email?: string | null; phone?: string | null; name?: string | null } = {}): Contact {
  return {
    email: fallback.email ?? user?.email ?? null,
    phone: user ? normalisePhone(user.phone ?? fallback.phone) : null,
    userId: user?.id ?? null,
    smsOptOut: user?.smsOptOut ?? false,
    marketingEmailOptOut: user?.marketingEmailOptOut ?? false,
    name: user?.name ?? fallback.name ?? null,
  };
}

export async function storeName(db: Database): Promise<string> {
  const [row] = await db.select({ name: storeSettings.name }).from(storeSettings).where(eq(storeSettings.id, 'store'));
  return row?.name ?? 'Store';
}

const money = (minor: number, order: Pick<OrderRow, 'minorUnits' | 'currency'>) => formatMinor(minor, order.currency, order.minorUnits);

function addressLine(address: PostalAddress | null): string {
  if (!address) return '';
  const name = [address.firstName, address.lastName].filter(Boolean).join(' ');
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [name, address.company, address.line1, address.line2, city, address.region, address.country].filter(Boolean).join(', ');
}

const itemLine = (line: Pick<OrderLineRow, 'name' | 'sku'>, quantity: number) => `${quantity} x ${line.name}${line.sku ? ` (${line.sku})` : ''}`;

/** One line per part of an order (a shipment's, a return's): quantity x name (SKU). */
function linesNamed(lines: OrderLineRow[], parts: { orderLineId: string; quantity: number }[]): string {
  const byId = new Map(lines.map((l) => [l.id, l]));
  return parts.flatMap((part) => (byId.has(part.orderLineId) ? [itemLine(byId.get(part.orderLineId)!, part.quantity)] : [])).join('\n');
}

/**
 * A gift card's variables, from its event alone, and its recipient (none without a recipientEmail).
 * The code is `[redacted]` here, as in the stored message: the consumer derives it again from the
 * card's id for the provider's copy alone (src/notifications/outgoing.ts).
 */
function giftCardContext(data: Record<string, unknown>, storeName: string, digitsOf: (currency: string) => number): EventContext | null {
  const email = text(data.recipientEmail);
  if (!email || !text(data.giftCardId)) return null;
  const customer = contactOf(undefined, { email, name: text(data.recipientName) });
  return {
    data: {
      storeName,
      recipientName: customer.name ?? email,
      recipientEmail: email,
      giftCardId: data.giftCardId as string,
      amount: typeof data.amount === 'number' && text(data.currency) ? formatMoney(data.amount, data.currency as string, digitsOf(data.currency as string)) : '',
      expiresAt: text(data.expiresAt)?.slice(0, 10) ?? 'never',
      code: REDACTED,
    },
    customer,
  };
}

/** Variables every order event shares, and the order's customer. */
function orderContext(order: OrderRow, lines: OrderLineRow[], user: ContactUser | undefined, storeName: string): EventContext & { order: OrderRow; lines: OrderLineRow[] } {
  const shippingName = [order.shippingAddress?.firstName, order.shippingAddress?.lastName].filter(Boolean).join(' ') || null;
  const customer = contactOf(user, { email: order.email, phone: order.shippingAddress?.phone, name: shippingName });
  const data: TemplateData = {
    storeName,
    orderNumber: `#${order.number}`,
    orderId: order.id,
    customerName: customer.name ?? order.email,
    email: order.email,
    status: order.status,
    currency: order.currency,
    items: lines.map((l) => `${itemLine(l, l.quantity)}  ${money(l.total, order)}`).join('\n'),
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    subtotal: money(order.subtotal, order),
    discountTotal: money(order.discountTotal, order),
    shippingTotal: money(order.shippingTotal, order),
    taxTotal: money(order.taxTotal, order),
    total: money(order.total, order),
    amountPaid: money(order.amountPaid, order),
    couponCode: order.couponCode ?? '',
    shippingAddress: addressLine(order.shippingAddress),
  };
  return { data, customer, order, lines };
}

/** Where the links in messages point (settings of the Worker). */
export interface Links {
  cartRecoveryUrl?: string;
}

interface CartLineName {
  cartId: string;
  quantity: number;
  productName: string;
  variantName: string | null;
}

/**
 * A cart reminder's variables and the customer it goes to. The link's token is `[redacted]` here,
 * as in the stored message: the consumer derives it again for the provider's copy alone
 * (src/notifications/outgoing.ts), from the event's `recoveryId` kept in the message's data.
 */
function cartContext(cart: CartRow, recoveryId: string, lines: CartLineName[], user: ContactUser | undefined, storeName: string, links: Links): EventContext {
  const customer = contactOf(user, { email: cart.email });
  return {
    data: {
      storeName,
      customerName: customer.name ?? customer.email ?? '',
      email: customer.email ?? '',
      cartId: cart.id,
      items: lines.map((l) => `${l.quantity} x ${l.productName}${l.variantName ? ` (${l.variantName})` : ''}`).join('\n'),
      itemCount: lines.reduce((n, l) => n + l.quantity, 0),
      recoveryUrl: recoveryUrl(links.cartRecoveryUrl, cart.id, REDACTED),
      token: REDACTED,
      expiresInDays: RECOVERY_DAYS,
      // Not a variable: what the consumer derives the token from at send time.
      recoveryId,
    },
    customer,
  };
}

/** An outbox event as the planner sees it. */
export interface ContextEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

const ORDER_EVENTS = new Set([
  'order.placed',
  'order.cancelled',
  'payment.completed',
  'payment.refunded',
  'shipment.shipped',
  'return.approved',
  'return.rejected',
  'return.received',
]);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// The reads, built once per isolate; every list is one JSON parameter.
const ordersIn = compiled((db, p: Slot<'ids'>) =>
  db
    .select()
    .from(orders)
    .where(inJson(orders.id, p('ids'))),
);
const linesIn = compiled((db, p: Slot<'ids'>) =>
  db
    .select()
    .from(orderLines)
    .where(inJson(orderLines.orderId, p('ids')))
    .orderBy(asc(orderLines.orderId), asc(orderLines.id)),
);
/** The accounts the events name, and the customers of the orders they name. */
const usersIn = compiled((db, p: Slot<'ids' | 'orderIds'>) =>
  db
    .select({ id: users.id, email: users.email, phone: users.phone, name: users.name, smsOptOut: users.smsOptOut, marketingEmailOptOut: users.marketingEmailOptOut })
    .from(users)
    .where(or(inJson(users.id, p('ids')), sql`${users.id} IN (SELECT ${orders.customerId} FROM ${orders} WHERE ${inJson(orders.id, p('orderIds'))})`)),
);
/** Aliased: in a D1 batch's results columns are keyed by name, and both tables have `name`. */
const variantsIn = compiled((db, p: Slot<'ids'>) =>
  db
    .select({ id: productVariants.id, productName: sql<string>`${products.name}`.as('product_name'), variantName: sql<string | null>`${productVariants.name}`.as('variant_name') })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inJson(productVariants.id, p('ids'))),
);
const cartsIn = compiled((db, p: Slot<'ids'>) =>
  db
    .select()
    .from(carts)
    .where(inJson(carts.id, p('ids'))),
);
/** A cart's lines with what they are, for the reminder's item list. */
const cartLinesIn = compiled((db, p: Slot<'ids'>) =>
  db
    .select({
      cartId: cartLines.cartId,
      quantity: cartLines.quantity,
      productName: sql<string>`${products.name}`.as('product_name'),
      variantName: sql<string | null>`${productVariants.name}`.as('variant_name'),
    })
    .from(cartLines)
    .innerJoin(productVariants, eq(productVariants.id, cartLines.variantId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .where(inJson(cartLines.cartId, p('ids')))
    .orderBy(asc(cartLines.cartId), asc(cartLines.createdAt)),
);
/** The minor units of the currencies gift card events name: their amounts are shown with them. */
const currenciesIn = compiled((db, p: Slot<'codes'>) =>
  db
    .select({ code: currencies.code, minorUnits: currencies.minorUnits })
    .from(currencies)
    .where(inJson(currencies.code, p('codes'))),
);
const settingsRow = compiled((db) => db.select({ name: storeSettings.name }).from(storeSettings).where(eq(storeSettings.id, 'store')));

/**
 * The reads the contexts of `events` need, to run in ONE D1 batch whatever their number (the
 * store-events consumer adds them to its own batch): their orders with lines and customers, the
 * accounts and variants they name, the currencies of the gift cards they issue, the store's name. `contexts` turns the batch's results, from
 * `statements`' first on, into each event's context by id.
 */
export function contextReads(
  db: Database,
  events: readonly ContextEvent[],
  links: Links = {},
): { statements: BatchItem<'sqlite'>[]; contexts(results: readonly unknown[]): Map<string, EventContext | null> } {
  const orderIds = new Set<string>();
  const userIds = new Set<string>();
  const variantIds = new Set<string>();
  const cartIds = new Set<string>();
  const currencyCodes = new Set<string>();
  for (const { type, data } of events) {
    if (type === 'gift_card.issued' && text(data.currency)) currencyCodes.add(text(data.currency)!);
    if (ORDER_EVENTS.has(type) && text(data.orderId)) orderIds.add(text(data.orderId)!);
    if (type === 'customer.registered' && text(data.customerId)) userIds.add(text(data.customerId)!);
    if (type === 'inventory.low' && text(data.variantId)) variantIds.add(text(data.variantId)!);
    if (type === 'cart.abandoned' && text(data.cartId)) {
      cartIds.add(text(data.cartId)!);
      if (text(data.customerId)) userIds.add(text(data.customerId)!);
    }
  }
  const json = (ids: Set<string>) => JSON.stringify([...ids]);
  const statements = [
    settingsRow(db, {}),
    ...(orderIds.size > 0 ? [ordersIn(db, { ids: json(orderIds) }), linesIn(db, { ids: json(orderIds) })] : []),
    ...(orderIds.size + userIds.size > 0 ? [usersIn(db, { ids: json(userIds), orderIds: json(orderIds) })] : []),
    ...(variantIds.size > 0 ? [variantsIn(db, { ids: json(variantIds) })] : []),
    ...(cartIds.size > 0 ? [cartsIn(db, { ids: json(cartIds) }), cartLinesIn(db, { ids: json(cartIds) })] : []),
    ...(currencyCodes.size > 0 ? [currenciesIn(db, { codes: json(currencyCodes) })] : []),
  ] as BatchItem<'sqlite'>[];

  return {
    statements,
    contexts(results) {
      const rows = [...results] as unknown[][];
      const [settings] = rows.splice(0, 1) as [{ name: string }[]];
      const [orderRows, lineRows] = (orderIds.size > 0 ? rows.splice(0, 2) : [[], []]) as [OrderRow[], OrderLineRow[]];
      const [userRows] = (orderIds.size + userIds.size > 0 ? rows.splice(0, 1) : [[]]) as [ContactUser[]];
      const [variantRows] = (variantIds.size > 0 ? rows.splice(0, 1) : [[]]) as [{ id: string; productName: string; variantName: string | null }[]];
      const [cartRows, cartLineRows] = (cartIds.size > 0 ? rows.splice(0, 2) : [[], []]) as [CartRow[], CartLineName[]];
      const [currencyRows] = (currencyCodes.size > 0 ? rows.splice(0, 1) : [[]]) as [{ code: string; minorUnits: number }[]];
      const digits = new Map(currencyRows.map((row) => [row.code, row.minorUnits]));
      // A currency the store has since deleted: ISO 4217's decimals.
      const digitsOf = (currency: string) => digits.get(currency) ?? isoDigits(currency);
      const store = settings[0]?.name ?? 'Store';
      const ordersById = new Map(orderRows.map((order) => [order.id, order]));
      const linesByOrder = new Map<string, OrderLineRow[]>();
      for (const line of lineRows) linesByOrder.set(line.orderId, [...(linesByOrder.get(line.orderId) ?? []), line]);
      const usersById = new Map(userRows.map((user) => [user.id, user]));
      const variantsById = new Map(variantRows.map((variant) => [variant.id, variant]));
      const forOrder = (orderId: unknown) => {
        const order = typeof orderId === 'string' ? ordersById.get(orderId) : undefined;
        return order ? orderContext(order, linesByOrder.get(order.id) ?? [], order.customerId ? usersById.get(order.customerId) : undefined, store) : null;
      };
      const cartsById = new Map(cartRows.map((cart) => [cart.id, cart]));
      const forCart = ({ data }: ContextEvent): EventContext | null => {
        const cart = typeof data.cartId === 'string' ? cartsById.get(data.cartId) : undefined;
        // A cart used again, checked out or gone since needs no reminder; nor one without its recovery.
        if (cart?.status !== 'abandoned' || typeof data.recoveryId !== 'string') return null;
        return cartContext(
          cart,
          data.recoveryId,
          cartLineRows.filter((l) => l.cartId === cart.id),
          cart.customerId ? usersById.get(cart.customerId) : undefined,
          store,
          links,
        );
      };
      return new Map(events.map((event) => [event.id, event.type === 'cart.abandoned' ? forCart(event) : contextOf(event, store, forOrder, usersById, variantsById, digitsOf)]));
    },
  };
}

/**
 * The template variables of an outbox event (src/notifications/triggers.ts lists them) and the
 * customer it concerns, from the rows as they are now (the event's own data where it is a
 * snapshot: amounts paid, tracking). Null when what the event names no longer exists.
 */
function contextOf(
  { type, data }: ContextEvent,
  store: string,
  forOrder: (orderId: unknown) => ReturnType<typeof orderContext> | null,
  usersById: Map<string, ContactUser>,
  variantsById: Map<string, { productName: string; variantName: string | null }>,
  digitsOf: (currency: string) => number,
): EventContext | null {
  switch (type) {
    case 'order.placed':
    case 'order.cancelled':
      return forOrder(data.orderId);
    case 'payment.completed':
    case 'payment.refunded': {
      const ctx = forOrder(data.orderId);
      if (!ctx) return null;
      const amount = typeof data.amount === 'number' ? formatMoney(data.amount, text(data.currency) ?? ctx.order.currency, ctx.order.minorUnits) : '';
      if (type === 'payment.completed') return { ...ctx, data: { ...ctx.data, paymentId: data.paymentId ?? '', amount } };
      const destination = data.destination === 'store_credit' ? 'your store credit' : 'your original payment method';
      return { ...ctx, data: { ...ctx.data, paymentId: data.paymentId ?? '', refundId: data.refundId ?? '', amount, destination } };
    }
    case 'return.approved':
    case 'return.rejected':
    case 'return.received': {
      const ctx = forOrder(data.orderId);
      if (!ctx) return null;
      const returned = Array.isArray(data.lines) ? (data.lines as { orderLineId: string; quantity: number }[]) : [];
      const resolution = type === 'return.received' ? {} : { resolution: data.resolution ?? '' };
      return { ...ctx, data: { ...ctx.data, returnId: data.returnId ?? '', returnItems: linesNamed(ctx.lines, returned), ...resolution } };
    }
    case 'gift_card.issued':
      return giftCardContext(data, store, digitsOf);
    case 'shipment.shipped': {
      const ctx = forOrder(data.orderId);
      if (!ctx) return null;
      const shipped = Array.isArray(data.lines) ? (data.lines as { orderLineId: string; quantity: number }[]) : [];
      const shipmentItems = linesNamed(ctx.lines, shipped);
      return {
        ...ctx,
        data: {
          ...ctx.data,
          shipmentId: data.shipmentId ?? '',
          carrier: data.carrier ?? '',
          trackingNumber: data.trackingNumber ?? '',
          trackingUrl: data.trackingUrl ?? '',
          shipmentItems,
        },
      };
    }
    case 'customer.registered': {
      const user = typeof data.customerId === 'string' ? usersById.get(data.customerId) : undefined;
      if (!user) return null;
      return { data: { storeName: store, customerName: user.name ?? user.email, email: user.email, customerId: user.id }, customer: contactOf(user) };
    }
    case 'inventory.low': {
      if (typeof data.variantId !== 'string') return null;
      const row = variantsById.get(data.variantId);
      return {
        data: {
          storeName: store,
          productId: data.productId ?? '',
          productName: row?.productName ?? '',
          variantId: data.variantId,
          variantName: row?.variantName ?? '',
          sku: data.sku ?? '',
          quantity: data.quantity ?? '',
          threshold: data.threshold ?? '',
        },
      };
    }
    default:
      return null;
  }
}
