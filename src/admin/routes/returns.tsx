import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { actorRef, hasPermission, vendorScope } from '../../lib/access';
import { ordersService as orders, orderNumberStart, findOrder, ALL_ORDERS } from '../../modules/orders';
import { returnReach, returnListQuery, returnsRoutes as routes, returnsService as service, exchangeReturn } from '../../modules/returns';
import { UpdateReturnBody, ExchangeBody } from '../../modules/returns/schemas';
import { paymentsRoutes as paymentRoutes, createRefund, paymentToRefund } from '../../modules/payments';
import { CreateRefundBody } from '../../modules/payments/schemas';
import { productVariants } from '../../db/schema';
import { eq, or } from 'drizzle-orm';
import { emptyForm } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { checked, failure, failureStatus, num, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { ReturnDetailPage, type ReturnView, ReturnsPage } from '../pages/returns';
import { moneyOf } from '../money';
import { formatMoney } from '../../lib/money';

const HERE = '/admin/returns';
type C = Context<AppEnv>;

async function detail(c: C, id: string, failed?: ReturnView['failed'], status = 200) {
  const reach = returnReach(c.var.principal);
  const ret = await service.getReturn(c.var.db, id, reach);
  const order = await orders.getOrder(c.var.db, ret.orderId, reach);
  const canWrite = hasPermission(c.var.principal, 'returns:write') && !vendorScope(c.var.principal);
  return page(
    c,
    { title: `Return ${ret.id}`, active: HERE, status },
    <ReturnDetailPage ret={ret} order={order} csrf={sessionOf(c).csrfToken} canWrite={canWrite} failed={failed} />,
  );
}

/**
 * The return lines a receipt form restocks, in its order: `restock.<returnLineId>` fields holding
 * something other than 0 or nothing. A line left at 0 (the form's default for a damaged one) is not
 * named, as the API wants for a line not put back in stock; anything else typed is validated.
 */
const restockLines = (form: Posted) =>
  Object.keys(form)
    .map((name) => /^restock\.(.+)$/.exec(name)?.[1])
    .filter((id): id is string => id !== undefined && !['', '0'].includes((str(form, `restock.${id}`) ?? '').trim()));

/** The move a form posts: its status, the resolution, and for a receipt the units of each line to restock. */
function moveOf(form: Posted) {
  const status = str(form, 'status');
  const restock = restockLines(form).map((returnLineId) => ({ returnLineId, quantity: Number(str(form, `restock.${returnLineId}`) ?? 0) }));
  return validate(UpdateReturnBody, { status, resolution: str(form, 'resolution'), ...(status === 'received' ? { restock } : {}) });
}

/** The rows of an exchange form filled in: `sku.<n>` (a SKU or a variant id) and `quantity.<n>`. */
const EXCHANGE_ROWS = [0, 1, 2];

/** An exchange form's lines with each SKU turned into its variant's id (an unknown one is left for the API's 422). */
async function exchangeOf(c: C, form: Posted) {
  const filled = EXCHANGE_ROWS.filter((i) => str(form, `sku.${i}`) !== undefined);
  const lines = await Promise.all(
    filled.map(async (i) => {
      const given = str(form, `sku.${i}`)!;
      const [variant] = await c.var.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(or(eq(productVariants.id, given), eq(productVariants.sku, given)));
      return { variantId: variant?.id ?? given, quantity: num(form, `quantity.${i}`) ?? 1 };
    }),
  );
  return validate(ExchangeBody, { lines, balanceTo: str(form, 'balanceTo') });
}

/** Runs a return page's action; its failure shows on the page next to the form named `action`. */
async function act(
  c: C,
  action: string | ((form: Posted) => string),
  run: (id: string, form: Posted) => Promise<string>,
  fieldNames: (form: Posted) => Record<string, string> = () => ({}),
) {
  const id = c.req.param('id')!;
  const form = await readForm(c);
  try {
    return redirectWith(c, `${HERE}/${id}`, await run(id, form));
  } catch (error) {
    const name = typeof action === 'string' ? action : action(form);
    return detail(c, id, { action: name, form: failure(error, refill(form), fieldNames(form)) }, failureStatus(error));
  }
}

export const returnsRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listReturns), async (c) => {
    const { query, values } = listQuery(c, returnListQuery);
    const { items, total } = await service.listReturns(c.var.db, returnReach(c.var.principal), query, returnListQuery);
    return page(c, { title: 'Returns', active: HERE }, <ReturnsPage returns={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
  })
  .get('/:id', guard(routes.getReturn), (c) => detail(c, c.req.param('id')))
  .post('/:id', guard(routes.updateReturn), (c) =>
    act(
      c,
      (form) => str(form, 'status') ?? '',
      async (id, form) => `Return ${(await service.updateReturn(c.var.db, id, moveOf(form), c.var.principal)).status}.`,
      (form) => Object.fromEntries(restockLines(form).map((line, i) => [`restock.${i}.quantity`, `restock.${line}`])),
    ),
  )
  // A received return's units refunded by line from the payment with the most left (docs/returns.md, Refunds).
  .post('/:id/refund', guard(paymentRoutes.createRefund), (c) =>
    act(c, 'refund', async (id, form) => {
      const ret = await service.getReturn(c.var.db, id, ALL_ORDERS);
      const order = await findOrder(c.var.db, ret.orderId, undefined);
      const input = validate(CreateRefundBody, {
        lines: ret.lines.map((l) => ({ orderLineId: l.orderLineId, quantity: l.quantity })),
        shipping: checked(form, 'shipping') || undefined,
        destination: str(form, 'destination'),
        reason: str(form, 'reason') ?? `Return ${id}`,
        returnId: id,
      });
      const refund = await createRefund(c.var.db, c.env, await paymentToRefund(c.var.db, order, undefined), order, input, { actor: actorRef(c.var.principal) });
      return `Refunded ${formatMoney(refund.amount, refund.currency, order.minorUnits)}.`;
    }),
  )
  .post('/:id/exchange', guard(routes.exchangeReturn), (c) =>
    act(
      c,
      'exchange',
      async (id, form) => {
        const made = await exchangeReturn(c.var.db, c.env, id, await exchangeOf(c, form), c.var.principal, { numberStart: orderNumberStart(c.env) });
        const money = await moneyOf(c.var.db);
        return `Exchanged for order #${made.order.number}: ${money(made.amountDue, made.order.currency)} to pay.`;
      },
      () =>
        Object.fromEntries(
          EXCHANGE_ROWS.flatMap((i) => [
            [`lines.${i}.variantId`, `sku.${i}`],
            [`lines.${i}.quantity`, `quantity.${i}`],
          ]),
        ),
    ),
  );
