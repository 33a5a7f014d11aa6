import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { payments as paymentsTable, shipments as shipmentsTable } from '../../db/schema';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { actorRef, hasPermission, isStaff, vendorScope } from '../../lib/access';
import { cancelReach, readReach, orderListQuery, ordersRoutes as routes, ordersService as orders, orderNumberStart } from '../../modules/orders';
import { CancelOrderBody, UpdateOrderBody, CreateOrderBody } from '../../modules/orders/schemas';
import { appliedCode } from '../../modules/checkout';
import {
  payerReach,
  orderPaymentListQuery,
  paymentsRoutes as paymentRoutes,
  paymentsService as payments,
  createRefund,
  listOrderRefunds,
  stripeDashboardUrl,
} from '../../modules/payments';
import { CreatePaymentBody, CreateRefundBody } from '../../modules/payments/schemas';
import { returnListQuery, listReturns } from '../../modules/returns';
import { shipmentListQuery, shipmentsRoutes as shipmentRoutes, shipmentsService as shipments } from '../../modules/shipments';
import { CreateShipmentBody, UpdateShipmentBody } from '../../modules/shipments/schemas';
import { emptyForm } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { checked, failure, failureStatus, num, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { OrderDetailPage, OrderListPage, type OrderView } from '../pages/orders';
import { listCustomers, getCustomer, customerListQuery } from '../../modules/customers';
import { listProducts, productListQuery } from '../../modules/products';
import { listCurrencies, currencyListQuery } from '../../modules/settings';
import { toMajor } from '../../lib/money';
import type { MiddlewareHandler } from 'hono';
import type { FormState } from '../components/form';
import { moneyOf, moneyWith } from '../money';
import { ADDRESS_FIELDS, DRAFT_FIELDS, type DraftLine, NewOrderPage, type Review } from '../pages/order-new';
import { config } from '../../config';

const HERE = '/admin/orders';
type C = Context<AppEnv>;
const actor = (c: C) => actorRef(c.var.principal);

/** The detail page: the order as its reach shows it, its payments (for those who may see them) and shipments. */
async function detail(c: C, id: string, failed?: OrderView['failed'], status = 200) {
  const db = c.var.db;
  const principal = c.var.principal;
  const reach = readReach(principal);
  const order = await orders.getOrder(db, id, reach);
  const seesPayments = isStaff(principal, 'payments');
  const [paid, refunded, shipped, returned, money] = await Promise.all([
    seesPayments ? payments.listPayments(db, firstPage(orderPaymentListQuery), orderPaymentListQuery, [eq(paymentsTable.orderId, order.id)]) : null,
    seesPayments ? listOrderRefunds(db, order.id) : [],
    // The order's reach: a vendor user sees the parcels carrying its lines, with those lines only.
    shipments.listShipments(db, reach, [eq(shipmentsTable.orderId, order.id)], firstPage(shipmentListQuery), shipmentListQuery),
    listReturns(db, reach, firstPage(returnListQuery, { order: order.id }), returnListQuery),
    moneyOf(db),
  ]);
  const write = hasPermission(principal, 'orders:write');
  const can = {
    write,
    pay: hasPermission(principal, 'payments:write'),
    ship: hasPermission(principal, 'shipments:write') || write,
    cancel: write && !vendorScope(principal),
  };
  const stripeLink = (p: { providerReference: string | null }) => stripeDashboardUrl(p, config(c.env).STRIPE_SECRET_KEY);
  const view = (
    <OrderDetailPage
      order={order}
      money={money}
      payments={paid?.items ?? null}
      refunds={refunded}
      providerLink={stripeLink}
      shipments={shipped.items}
      returns={returned.items}
      csrf={sessionOf(c).csrfToken}
      can={can}
      failed={failed}
    />
  );
  return page(c, { title: `Order #${order.number}`, active: HERE, status }, view);
}

/** Runs an order action; success redirects back with `done`, a failure shows the page with that form's errors. */
async function act(c: C, action: string, work: (id: string, form: Posted) => Promise<unknown>, done: string) {
  const id = c.req.param('id')!;
  const form = await readForm(c);
  try {
    await work(id, form);
    return redirectWith(c, `${HERE}/${id}`, done);
  } catch (error) {
    return detail(c, id, { action, form: failure(error, refill(form)) }, failureStatus(error));
  }
}

// ---- New order (POST /api/orders from the panel) ----------------------------------------------

/** Who may place orders for others, as placementFor decides it for staff: `orders:write`, not a vendor user. */
const mayPlace = (c: C) => hasPermission(c.var.principal, 'orders:write') && !vendorScope(c.var.principal);
const placeGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (vendorScope(c.var.principal)) throw ApiError.forbidden('Vendor users cannot place orders');
  if (!hasPermission(c.var.principal, 'orders:write')) throw ApiError.forbidden("This credential lacks the 'orders:write' permission");
  await next();
};

/** The draft's lines from the form, blank rows dropped, in the order of their indexes. */
function draftLines(form: Posted): DraftLine[] {
  const indexes = Object.keys(form)
    .map((name) => /^lines\.(\d+)\.variantId$/.exec(name)?.[1])
    .filter((i): i is string => i !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return indexes.map((i) => ({ variantId: str(form, `lines.${i}.variantId`) ?? '', quantity: str(form, `lines.${i}.quantity`) ?? '' })).filter((l) => l.variantId !== '');
}

/** The draft's other fields, as text to refill the form with. */
function draftValues(form: Posted): Record<string, string> {
  return Object.fromEntries(DRAFT_FIELDS.map((name) => [name, str(form, name) ?? '']));
}

/** The body POST /api/orders would get for this draft (text numbers left as text, so the schema names them). */
function draftBody(values: Record<string, string>, lines: DraftLine[]) {
  const opt = (name: string) => values[name] || undefined;
  const address = Object.fromEntries(
    ADDRESS_FIELDS.map(([key]) => [key, key === 'country' ? opt(`shippingAddress.${key}`)?.toUpperCase() : opt(`shippingAddress.${key}`)]).filter(([, v]) => v !== undefined),
  );
  return {
    lines: lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity === '' ? undefined : Number.isFinite(Number(l.quantity)) ? Number(l.quantity) : l.quantity })),
    currency: opt('currency'),
    couponCode: opt('couponCode'),
    shippingAddress: Object.keys(address).length ? address : undefined,
    notes: opt('notes'),
    customerId: opt('customerId'),
    email: opt('email'),
  };
}

/** The form's choices: customers (the first page, plus the chosen one), active products' variants, enabled currencies. */
async function newOrderChoices(c: C, chosenCustomer?: string) {
  const db = c.var.db;
  const search = new URL(c.req.url).searchParams.get('customer_q')?.trim();
  const [customers, products, currencies] = await Promise.all([
    listCustomers(db, firstPage(customerListQuery, search ? { q: search } : {})),
    listProducts(db, firstPage(productListQuery, { status: 'active' }), { staff: true }),
    listCurrencies(db, firstPage(currencyListQuery, { enabled: 'true' }), true),
  ]);
  const people = customers.items;
  if (chosenCustomer && !people.some((p) => p.id === chosenCustomer)) {
    const chosen = await getCustomer(db, chosenCustomer).catch(() => undefined);
    if (chosen) people.unshift(chosen);
  }
  const base = currencies.items.find((x) => x.isDefault)?.code ?? currencies.items[0]?.code ?? '';
  const money = moneyWith(new Map(currencies.items.map((x) => [x.code, x.minorUnits])));
  return {
    search: search ?? '',
    defaultCurrency: base,
    customers: people.map((p): [string, string] => [p.id, p.name ? `${p.email} (${p.name})` : p.email]),
    variants: products.items.flatMap((p) =>
      p.variants.map((v): [string, string] => [v.id, `${p.name}${v.name ? ` – ${v.name}` : ''}${v.sku ? ` [${v.sku}]` : ''} · ${money(v.price, base)} · ${v.stock} in stock`]),
    ),
    currencies: currencies.items.map((x): [string, string] => [x.code, `${x.code} – ${x.name}`]),
  };
}

async function newOrderPage(c: C, form: FormState, lines: DraftLine[], review?: Review, status = 200) {
  const choices = await newOrderChoices(c, String(form.values.customerId ?? '') || undefined);
  if (!form.values.currency) form.values.currency = choices.defaultCurrency;
  const rows = lines.length ? lines : [{ variantId: '', quantity: '1' }];
  const view = (
    <NewOrderPage
      csrf={sessionOf(c).csrfToken}
      form={form}
      lines={rows}
      customers={choices.customers}
      variants={choices.variants}
      currencies={choices.currencies}
      customerSearch={choices.search}
      review={review}
    />
  );
  return page(c, { title: 'New order', active: HERE, status }, view);
}

/** The totals the order would be placed at, as orders.reviewOrder prices and refuses it, in major units. */
async function reviewOf(c: C, body: ReturnType<typeof CreateOrderBody.parse>): Promise<Review> {
  const { orderer, quote: priced } = await orders.reviewOrder(c.var.db, c.var.principal, body);
  const major = (minor: number) => toMajor(minor, priced.currency.minorUnits);
  const t = priced.totals;
  return {
    currency: priced.currency.code,
    digits: priced.currency.minorUnits,
    lines: priced.lines.map((l) => ({
      name: l.name,
      sku: l.sku,
      quantity: l.quantity,
      stock: l.stock,
      unitPrice: major(l.unitPrice),
      discount: major(l.discount),
      tax: major(l.tax),
      taxRate: l.taxRate === null ? null : Number(l.taxRate),
      total: major(l.total),
    })),
    pricesIncludeTax: t.pricesIncludeTax,
    subtotal: major(t.subtotal),
    discountTotal: major(t.discountTotal),
    shippingTotal: major(t.shippingTotal),
    taxTotal: major(t.taxTotal),
    total: major(t.total),
    couponCode: appliedCode(priced),
    orderer: orderer.customerId ? `${orderer.email} (customer ${orderer.customerId})` : `${orderer.email} (guest)`,
  };
}

export const orderRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listOrders), async (c) => {
    const { query, values } = listQuery(c, orderListQuery);
    const [{ items, total }, money] = await Promise.all([orders.listOrders(c.var.db, query, readReach(c.var.principal)), moneyOf(c.var.db)]);
    return page(
      c,
      { title: 'Orders', active: HERE },
      <OrderListPage orders={items} money={money} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} canCreate={mayPlace(c)} />,
    );
  })
  .get('/new', guard(routes.createOrder), placeGuard, (c) => newOrderPage(c, emptyForm({ customerId: new URL(c.req.url).searchParams.get('customerId') ?? '' }), []))
  .post('/new', guard(routes.createOrder), placeGuard, async (c) => {
    const form = await readForm(c);
    const step = str(form, 'step');
    const lines = draftLines(form);
    const values = draftValues(form);
    if (step === 'add') return newOrderPage(c, emptyForm(values), [...lines, { variantId: '', quantity: '1' }]);
    try {
      const body = validate(CreateOrderBody, draftBody(values, lines));
      if (step === 'place') {
        const order = await orders.createOrder(c.var.db, c.var.principal, body, actor(c), orderNumberStart(c.env));
        return redirectWith(c, `${HERE}/${order.number}`, `Order #${order.number} placed.`);
      }
      return newOrderPage(c, emptyForm(values), lines, await reviewOf(c, body));
    } catch (error) {
      return newOrderPage(c, failure(error, values), lines, undefined, failureStatus(error));
    }
  })
  .get('/:id', guard(routes.getOrder), (c) => detail(c, c.req.param('id')))
  .post('/:id/status', guard(routes.updateOrder), (c) =>
    act(c, 'status', (id, form) => orders.updateOrder(c.var.db, id, validate(UpdateOrderBody, { status: str(form, 'status') }), actor(c)), 'Status changed.'),
  )
  .post('/:id/notes', guard(routes.updateOrder), (c) =>
    act(c, 'notes', (id, form) => orders.updateOrder(c.var.db, id, validate(UpdateOrderBody, { notes: orNull(form, 'notes') }), actor(c)), 'Notes saved.'),
  )
  .post('/:id/payments', guard(paymentRoutes.createPayment), (c) =>
    act(
      c,
      'payment',
      async (id, form) => {
        const input = validate(CreatePaymentBody, { provider: 'manual', amount: num(form, 'amount'), reference: str(form, 'reference') });
        const order = await payments.findOrder(c.var.db, id, payerReach(c.var.principal, 'manual'));
        const { payment } = await payments.createPayment(c.var.db, c.env, order, input, { actor: actor(c) });
        if (payment.status === 'failed') throw ApiError.conflict(`The payment failed: ${payment.failureReason}`);
      },
      'Payment recorded.',
    ),
  )
  .post('/:id/payments/:paymentId/refund', guard(paymentRoutes.createRefund), (c) =>
    act(
      c,
      `refund-${c.req.param('paymentId')}`,
      async (_id, form) => {
        const lines = Object.keys(form)
          .filter((name) => name.startsWith('line-') && str(form, name) !== undefined && num(form, name) !== 0)
          .map((name) => ({ orderLineId: name.slice('line-'.length), quantity: num(form, name) }));
        const input = validate(CreateRefundBody, {
          amount: num(form, 'amount'),
          reason: str(form, 'reason'),
          lines: lines.length ? lines : undefined,
          shipping: checked(form, 'shipping') || undefined,
          destination: str(form, 'destination'),
        });
        const { payment, order } = await payments.findPayment(c.var.db, c.req.param('paymentId'), undefined);
        await createRefund(c.var.db, c.env, payment, order, input, { actor: actor(c) });
      },
      'Refund recorded.',
    ),
  )
  .post('/:id/shipments', guard(shipmentRoutes.createShipment), (c) =>
    act(
      c,
      'shipment',
      async (id, form) => {
        const input = validate(CreateShipmentBody, {
          carrier: str(form, 'carrier'),
          trackingNumber: str(form, 'trackingNumber'),
          trackingUrl: str(form, 'trackingUrl'),
          status: str(form, 'status'),
        });
        const order = await shipments.findOrder(c.var.db, id, undefined);
        await shipments.createShipment(c.var.db, order, input, actor(c));
      },
      'Shipment created.',
    ),
  )
  .post('/:id/shipments/:shipmentId', guard(shipmentRoutes.updateShipment), (c) =>
    act(
      c,
      'shipment-update',
      async (_id, form) => {
        await shipments.updateShipment(c.var.db, c.req.param('shipmentId'), validate(UpdateShipmentBody, { status: str(form, 'status') }), actor(c));
      },
      'Shipment updated.',
    ),
  )
  .post('/:id/cancel', guard(routes.cancelOrder), (c) =>
    act(
      c,
      'cancel',
      (id, form) => orders.cancelOrder(c.var.db, id, cancelReach(c.var.principal), validate(CancelOrderBody, { reason: str(form, 'reason') }).reason, actor(c)),
      'Order cancelled.',
    ),
  );
