import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { payments as paymentsTable } from '../../db/schema';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { actorRef, hasPermission, isStaff, vendorScope } from '../../lib/access';
import { cancelReach, readReach } from '../../modules/orders/orders.access';
import { orderListQuery } from '../../modules/orders/orders.query';
import * as routes from '../../modules/orders/orders.routes';
import { CancelOrderBody, UpdateOrderBody } from '../../modules/orders/orders.schemas';
import * as orders from '../../modules/orders/orders.service';
import { orderPaymentListQuery } from '../../modules/payments/payments.query';
import * as paymentRoutes from '../../modules/payments/payments.routes';
import { CreatePaymentBody, CreateRefundBody } from '../../modules/payments/payments.schemas';
import * as payments from '../../modules/payments/payments.service';
import { createRefund } from '../../modules/payments/refunds.service';
import { shipmentListQuery } from '../../modules/shipments/shipments.query';
import * as shipmentRoutes from '../../modules/shipments/shipments.routes';
import { CreateShipmentBody, UpdateShipmentBody } from '../../modules/shipments/shipments.schemas';
import * as shipments from '../../modules/shipments/shipments.service';
import { emptyForm } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, num, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { OrderDetailPage, OrderListPage, type OrderView } from '../pages/orders';

const HERE = '/admin/orders';
type C = Context<AppEnv>;
const actor = (c: C) => actorRef(c.var.principal);

/** The detail page: the order as its reach shows it, its payments (for those who may see them) and shipments. */
async function detail(c: C, id: string, failed?: OrderView['failed'], status = 200) {
  const db = c.var.db;
  const principal = c.var.principal;
  const order = await orders.getOrder(db, id, readReach(principal));
  const seesPayments = isStaff(principal, 'payments');
  const [paid, shipped] = await Promise.all([
    seesPayments ? payments.listPayments(db, firstPage(orderPaymentListQuery), orderPaymentListQuery, [eq(paymentsTable.orderId, order.id)]) : null,
    shipments.listOrderShipments(db, order.id, firstPage(shipmentListQuery), shipmentListQuery),
  ]);
  const write = hasPermission(principal, 'orders:write');
  const can = {
    write,
    pay: hasPermission(principal, 'payments:write'),
    ship: hasPermission(principal, 'shipments:write') || write,
    cancel: write && !vendorScope(principal),
  };
  const view = <OrderDetailPage order={order} payments={paid?.items ?? null} shipments={shipped.items} csrf={sessionOf(c).csrfToken} can={can} failed={failed} />;
  return page(c, { title: `Order ${order.id}`, active: HERE, status }, view);
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

export const orderRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listOrders), async (c) => {
    const { query, values } = listQuery(c, orderListQuery);
    const { items, total } = await orders.listOrders(c.var.db, query, readReach(c.var.principal));
    return page(c, { title: 'Orders', active: HERE }, <OrderListPage orders={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
  })
  .get('/:id', guard(routes.getOrder), (c) => detail(c, c.req.param('id')))
  .post('/:id/status', guard(routes.updateOrder), (c) =>
    act(c, 'status', (id, form) => orders.updateOrder(c.var.db, id, validate(UpdateOrderBody, { status: str(form, 'status') }), actor(c)), 'Status changed.'),
  )
  .post('/:id/payments', guard(paymentRoutes.createPayment), (c) =>
    act(c, 'payment', async (id, form) => {
      const input = validate(CreatePaymentBody, { provider: 'manual', amount: num(form, 'amount'), reference: str(form, 'reference') });
      const order = await payments.findOrder(c.var.db, id, undefined);
      const payment = await payments.createPayment(c.var.db, order, input, actor(c));
      if (payment.status === 'failed') throw ApiError.conflict(`The payment failed: ${payment.failureReason}`);
    }, 'Payment recorded.'),
  )
  .post('/:id/payments/:paymentId/refund', guard(paymentRoutes.createRefund), (c) =>
    act(c, `refund-${c.req.param('paymentId')}`, async (_id, form) => {
      const input = validate(CreateRefundBody, { amount: num(form, 'amount'), reason: str(form, 'reason') });
      const { payment, order } = await payments.findPayment(c.var.db, c.req.param('paymentId'), undefined);
      await createRefund(c.var.db, payment, order, input, actor(c));
    }, 'Refund recorded.'),
  )
  .post('/:id/shipments', guard(shipmentRoutes.createShipment), (c) =>
    act(c, 'shipment', async (id, form) => {
      const input = validate(CreateShipmentBody, {
        carrier: str(form, 'carrier'),
        trackingNumber: str(form, 'trackingNumber'),
        trackingUrl: str(form, 'trackingUrl'),
        status: str(form, 'status'),
      });
      const order = await shipments.findOrder(c.var.db, id, undefined);
      await shipments.createShipment(c.var.db, order, input, actor(c));
    }, 'Shipment created.'),
  )
  .post('/:id/shipments/:shipmentId', guard(shipmentRoutes.updateShipment), (c) =>
    act(c, 'shipment-update', async (_id, form) => {
      await shipments.updateShipment(c.var.db, c.req.param('shipmentId'), validate(UpdateShipmentBody, { status: str(form, 'status') }), actor(c));
    }, 'Shipment updated.'),
  )
  .post('/:id/cancel', guard(routes.cancelOrder), (c) =>
    act(c, 'cancel', (id, form) => orders.cancelOrder(c.var.db, id, cancelReach(c.var.principal), validate(CancelOrderBody, { reason: str(form, 'reason') }).reason, actor(c)), 'Order cancelled.'),
  );
