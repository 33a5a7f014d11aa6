import { eq } from 'drizzle-orm';
import { orders, payments } from '../../db/schema';
import { created, list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { actorRef } from '../../lib/access';
import { paymentReach } from './payments.access';
import { orderPaymentListQuery, paymentListQuery, refundListQuery } from './payments.query';
import type * as routes from './payments.routes';
import * as service from './payments.service';
import * as refundService from './refunds.service';

export const createPayment: AppRouteHandler<typeof routes.createPayment> = async (c) => {
  const order = await service.findOrder(c.var.db, c.req.valid('param').id, undefined);
  const payment = await service.createPayment(c.var.db, order, c.req.valid('json'), actorRef(c.var.principal));
  const message = payment.status === 'completed' ? 'Payment completed' : payment.status === 'failed' ? `Payment failed: ${payment.failureReason}` : 'Payment pending';
  return created(c, payment, `/api/payments/${payment.id}`, message);
};

export const listOrderPayments: AppRouteHandler<typeof routes.listOrderPayments> = async (c) => {
  const reach = paymentReach(c.var.principal, orders.id);
  const order = await service.findOrder(c.var.db, c.req.valid('param').id, reach);
  const query = c.req.valid('query');
  const { items, total } = await service.listPayments(c.var.db, query, orderPaymentListQuery, [eq(payments.orderId, order.id)]);
  return list(c, items.map((p) => project(p, query.fields)), pagination(query.page, query.limit, total));
};

export const listPayments: AppRouteHandler<typeof routes.listPayments> = async (c) => {
  const reach = paymentReach(c.var.principal, payments.orderId);
  const query = c.req.valid('query');
  const { items, total } = await service.listPayments(c.var.db, query, paymentListQuery, [reach]);
  return list(c, items.map((p) => project(p, query.fields)), pagination(query.page, query.limit, total));
};

export const getPayment: AppRouteHandler<typeof routes.getPayment> = async (c) => {
  const { payment, digits } = await service.findPayment(c.var.db, c.req.valid('param').id, paymentReach(c.var.principal, payments.orderId));
  return ok(c, project(service.toPayment(payment, digits), c.req.valid('query').fields));
};

export const createRefund: AppRouteHandler<typeof routes.createRefund> = async (c) => {
  const { payment, order } = await service.findPayment(c.var.db, c.req.valid('param').id, undefined);
  const refund = await refundService.createRefund(c.var.db, payment, order, c.req.valid('json'), actorRef(c.var.principal));
  return created(c, refund, `/api/payments/${payment.id}/refunds`, 'Refund created');
};

export const listRefunds: AppRouteHandler<typeof routes.listRefunds> = async (c) => {
  const { payment, digits } = await service.findPayment(c.var.db, c.req.valid('param').id, paymentReach(c.var.principal, payments.orderId));
  const query = c.req.valid('query');
  const { items, total } = await refundService.listRefunds(c.var.db, payment.id, digits, query, refundListQuery);
  return list(c, items.map((r) => project(r, query.fields)), pagination(query.page, query.limit, total));
};
