import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orderLines, orders, productVariants, products, storeSettings, users, type OrderLineRow, type OrderRow, type PostalAddress, type UserRow } from '../db/schema';
import { toMajor } from '../lib/money';
import type { TemplateData } from './render';

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

export const normalisePhone = (phone: string | null | undefined) => (phone ? phone.replace(/[\s().-]/g, '') || null : null);

export function contactOf(user: UserRow | undefined, fallback: { email?: string | null; phone?: string | null; name?: string | null } = {}): Contact {
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

const money = (minor: number, order: Pick<OrderRow, 'minorUnits' | 'currency'>) => `${toMajor(minor, order.minorUnits).toFixed(order.minorUnits)} ${order.currency}`;

function addressLine(address: PostalAddress | null): string {
  if (!address) return '';
  const name = [address.firstName, address.lastName].filter(Boolean).join(' ');
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [name, address.company, address.line1, address.line2, city, address.region, address.country].filter(Boolean).join(', ');
}

const itemLine = (line: Pick<OrderLineRow, 'name' | 'sku'>, quantity: number) => `${quantity} x ${line.name}${line.sku ? ` (${line.sku})` : ''}`;

/** Variables every order event shares, and the order's customer. Null when the order is gone. */
async function orderContext(db: Database, orderId: unknown): Promise<(EventContext & { order: OrderRow; lines: OrderLineRow[] }) | null> {
  if (typeof orderId !== 'string') return null;
  const [orderRows, lines, settings] = await db.batch([
    db.select().from(orders).where(eq(orders.id, orderId)),
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id)),
    db.select({ name: storeSettings.name }).from(storeSettings).where(eq(storeSettings.id, 'store')),
  ]);
  const order = orderRows[0];
  if (!order) return null;
  const user = order.customerId ? await db.query.users.findFirst({ where: eq(users.id, order.customerId) }) : undefined;
  const shippingName = [order.shippingAddress?.firstName, order.shippingAddress?.lastName].filter(Boolean).join(' ') || null;
  const customer = contactOf(user, { email: order.email, phone: order.shippingAddress?.phone, name: shippingName });
  const data: TemplateData = {
    storeName: settings[0]?.name ?? 'Store',
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

/**
 * The template variables of an outbox event (src/notifications/triggers.ts lists them) and the
 * customer it concerns, read from the rows as they are now (the event's own data where it is a
 * snapshot: amounts paid, tracking). Null when what the event names no longer exists.
 */
export async function eventContext(db: Database, type: string, data: Record<string, unknown>): Promise<EventContext | null> {
  switch (type) {
    case 'order.placed':
    case 'order.cancelled':
      return orderContext(db, data.orderId);
    case 'payment.completed': {
      const ctx = await orderContext(db, data.orderId);
      if (!ctx) return null;
      const amount = typeof data.amount === 'number' ? `${data.amount.toFixed(ctx.order.minorUnits)} ${String(data.currency ?? ctx.order.currency)}` : '';
      return { ...ctx, data: { ...ctx.data, paymentId: data.paymentId ?? '', amount } };
    }
    case 'shipment.shipped': {
      const ctx = await orderContext(db, data.orderId);
      if (!ctx) return null;
      const shipped = Array.isArray(data.lines) ? (data.lines as { orderLineId: string; quantity: number }[]) : [];
      const byId = new Map(ctx.lines.map((l) => [l.id, l]));
      const shipmentItems = shipped.flatMap((s) => (byId.has(s.orderLineId) ? [itemLine(byId.get(s.orderLineId)!, s.quantity)] : [])).join('\n');
      return {
        ...ctx,
        data: { ...ctx.data, shipmentId: data.shipmentId ?? '', carrier: data.carrier ?? '', trackingNumber: data.trackingNumber ?? '', trackingUrl: data.trackingUrl ?? '', shipmentItems },
      };
    }
    case 'customer.registered': {
      if (typeof data.customerId !== 'string') return null;
      const user = await db.query.users.findFirst({ where: eq(users.id, data.customerId) });
      if (!user) return null;
      return { data: { storeName: await storeName(db), customerName: user.name ?? user.email, email: user.email, customerId: user.id }, customer: contactOf(user) };
    }
    case 'inventory.low': {
      if (typeof data.variantId !== 'string') return null;
      const [row] = await db
        .select({ productName: products.name, variantName: productVariants.name })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(eq(productVariants.id, data.variantId));
      return {
        data: {
          storeName: await storeName(db),
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
