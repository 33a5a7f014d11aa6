import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { customerListQuery } from '../../modules/customers/customers.query';
import * as routes from '../../modules/customers/customers.routes';
import { getCustomer, listCustomers } from '../../modules/customers/customers.service';
import { customerTarget } from '../../modules/customers/customers.access';
import { readReach } from '../../modules/orders/orders.access';
import { orderListQuery } from '../../modules/orders/orders.query';
import { listOrders } from '../../modules/orders/orders.service';
import { emptyForm } from '../components/form';
import { guard, page } from '../context';
import { listQuery, pageOf, parseList } from '../list';
import { CustomerDetailPage, CustomerListPage } from '../pages/customers';

export const customerRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listCustomers), async (c) => {
    const { query, values } = listQuery(c, customerListQuery);
    const { items, total } = await listCustomers(c.var.db, query);
    return page(c, { title: 'Customers', active: '/admin/customers' }, <CustomerListPage customers={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
  })
  // As GET /api/customers/{id}: staff reach any customer (the panel has no customers of its own).
  .get('/:id', guard(routes.listCustomers), async (c) => {
    const target = customerTarget(c.var.principal, c.req.param('id'), 'read');
    const [customer, orders] = await Promise.all([
      getCustomer(c.var.db, target.id),
      listOrders(c.var.db, parseList(orderListQuery, { customer: target.id, limit: '10' }), readReach(c.var.principal)),
    ]);
    return page(c, { title: customer.name ?? customer.email, active: '/admin/customers' }, <CustomerDetailPage customer={customer} orders={orders.items} orderTotal={orders.total} />);
  });
