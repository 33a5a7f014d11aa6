import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { refuseCartListOutsiders, cartListQuery, cartsRoutes as routes, cartsService as service } from '../../modules/carts';
import { emptyForm } from '../components/form';
import { guard, page } from '../context';
import { listQuery, pageOf } from '../list';
import { CartsPage } from '../pages/carts';
import { moneyOf } from '../money';

const HERE = '/admin/carts';

export const cartsRoutes = new Hono<AppEnv>().get('/', guard(routes.listCarts), async (c) => {
  refuseCartListOutsiders(c.var.principal);
  const { query, values } = listQuery(c, cartListQuery);
  const [{ items, total }, money] = await Promise.all([service.listCarts(c.var.db, query), moneyOf(c.var.db)]);
  return page(c, { title: 'Carts', active: HERE }, <CartsPage carts={items} money={money} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
});
