import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { actorRef, hasPermission } from '../../lib/access';
import { inventoryReach, adjustmentListQuery, inventoryListQuery, inventoryRoutes as routes, inventoryService as service } from '../../modules/inventory';
import { CreateAdjustmentBody } from '../../modules/inventory/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, num, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { InventoryListPage, VariantStockPage } from '../pages/inventory';

const HERE = '/admin/inventory';
type C = Context<AppEnv>;

/** As the API: a vendor user reaches its own products' variants only. */
const reach = (c: C) => inventoryReach(c.var.principal);
const canWrite = (c: C) => hasPermission(c.var.principal, 'inventory:write');

async function variantPage(c: C, variantId: string, form: FormState, status = 200) {
  const { query, values } = listQuery(c, adjustmentListQuery);
  const [item, history] = await Promise.all([service.getItem(c.var.db, variantId, reach(c)), service.listAdjustments(c.var.db, variantId, query, adjustmentListQuery, reach(c))]);
  const view = (
    <VariantStockPage
      item={item}
      history={history.items}
      page={pageOf(query, history.total)}
      url={c.req.url}
      filters={emptyForm(values)}
      form={form}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
    />
  );
  const title = `Stock of ${item.productName}${item.name ? ` – ${item.name}` : ''}`;
  return page(c, { title, active: HERE, status }, view);
}

export const inventoryRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listInventory), async (c) => {
    const { query, values } = listQuery(c, inventoryListQuery);
    const { items, total } = await service.listInventory(c.var.db, query, inventoryListQuery, reach(c));
    const view = <InventoryListPage items={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} canWrite={canWrite(c)} />;
    return page(c, { title: 'Inventory', active: HERE }, view);
  })
  .get('/:variantId', guard(routes.listAdjustments), (c) => variantPage(c, c.req.param('variantId'), emptyForm({ reason: 'restock' })))
  .post('/:variantId/adjustments', guard(routes.createAdjustment), async (c) => {
    const variantId = c.req.param('variantId');
    const form = await readForm(c);
    try {
      const input = validate(CreateAdjustmentBody, { delta: num(form, 'delta'), reason: str(form, 'reason'), note: str(form, 'note') });
      const { inventory } = await service.adjustStock(c.var.db, variantId, input, reach(c), actorRef(c.var.principal));
      const low = inventory.low ? ` That is at or below its low-stock threshold (${inventory.lowStockThreshold}).` : '';
      return redirectWith(c, `${HERE}/${variantId}`, `Stock adjusted by ${input.delta > 0 ? '+' : ''}${input.delta}: ${inventory.stock} in stock now.${low}`);
    } catch (error) {
      return variantPage(c, variantId, failure(error, refill(form)), failureStatus(error));
    }
  });
