import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { shipmentReach, allShipmentsListQuery, shipmentsRoutes as routes, shipmentsService as service } from '../../modules/shipments';
import { emptyForm } from '../components/form';
import { guard, page } from '../context';
import { listQuery, pageOf } from '../list';
import { ShipmentsPage } from '../pages/shipments';

const HERE = '/admin/shipments';

export const shipmentsRoutes = new Hono<AppEnv>().get('/', guard(routes.listShipments), async (c) => {
  const { query, values } = listQuery(c, allShipmentsListQuery);
  const { items, total } = await service.listShipments(c.var.db, shipmentReach(c.var.principal), [], query, allShipmentsListQuery);
  return page(c, { title: 'Shipments', active: HERE }, <ShipmentsPage shipments={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
});
