import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission, vendorScope } from '../../lib/access';
import * as orders from '../../modules/orders/orders.service';
import { returnReach } from '../../modules/returns/returns.access';
import { returnListQuery } from '../../modules/returns/returns.query';
import * as routes from '../../modules/returns/returns.routes';
import { UpdateReturnBody } from '../../modules/returns/returns.schemas';
import * as service from '../../modules/returns/returns.service';
import { emptyForm } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { ReturnDetailPage, type ReturnView, ReturnsPage } from '../pages/returns';

const HERE = '/admin/returns';
type C = Context<AppEnv>;

async function detail(c: C, id: string, failed?: ReturnView['failed'], status = 200) {
  const reach = returnReach(c.var.principal);
  const ret = await service.getReturn(c.var.db, id, reach);
  const order = await orders.getOrder(c.var.db, ret.orderId, reach);
  const canWrite = hasPermission(c.var.principal, 'orders:write') && !vendorScope(c.var.principal);
  return page(
    c,
    { title: `Return ${ret.id}`, active: HERE, status },
    <ReturnDetailPage ret={ret} order={order} csrf={sessionOf(c).csrfToken} canWrite={canWrite} failed={failed} />,
  );
}

/** The return lines a receipt form names, in its order: `restock.<returnLineId>` fields. */
const restockLines = (form: Posted) =>
  Object.keys(form)
    .map((name) => /^restock\.(.+)$/.exec(name)?.[1])
    .filter((id): id is string => id !== undefined);

/** The move a form posts: its status, the resolution, and for a receipt the units of each line to restock. */
function moveOf(form: Posted) {
  const status = str(form, 'status');
  const restock = restockLines(form).map((returnLineId) => ({ returnLineId, quantity: Number(str(form, `restock.${returnLineId}`) ?? 0) }));
  return validate(UpdateReturnBody, { status, resolution: str(form, 'resolution'), ...(status === 'received' ? { restock } : {}) });
}

export const returnsRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listReturns), async (c) => {
    const { query, values } = listQuery(c, returnListQuery);
    const { items, total } = await service.listReturns(c.var.db, returnReach(c.var.principal), query, returnListQuery);
    return page(c, { title: 'Returns', active: HERE }, <ReturnsPage returns={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
  })
  .get('/:id', guard(routes.getReturn), (c) => detail(c, c.req.param('id')))
  .post('/:id', guard(routes.updateReturn), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const moved = await service.updateReturn(c.var.db, id, moveOf(form), c.var.principal);
      return redirectWith(c, `${HERE}/${id}`, `Return ${moved.status}.`);
    } catch (error) {
      const fieldNames = Object.fromEntries(restockLines(form).map((line, i) => [`restock.${i}.quantity`, `restock.${line}`]));
      return detail(c, id, { action: str(form, 'status') ?? '', form: failure(error, refill(form), fieldNames) }, failureStatus(error));
    }
  });
