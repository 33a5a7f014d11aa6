import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { customerListQuery } from '../../modules/customers/customers.query';
import * as routes from '../../modules/customers/customers.routes';
import { listCustomers } from '../../modules/customers/customers.service';
import { emptyForm } from '../components/form';
import { guard, page } from '../context';
import { listQuery, pageOf } from '../list';
import { CustomerListPage } from '../pages/customers';

export const customerRoutes = new Hono<AppEnv>().get('/', guard(routes.listCustomers), async (c) => {
  const { query, values } = listQuery(c, customerListQuery);
  const { items, total } = await listCustomers(c.var.db, query);
  return page(c, { title: 'Customers', active: '/admin/customers' }, <CustomerListPage customers={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
});
