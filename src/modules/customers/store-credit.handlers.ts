import { actorRef } from '../../lib/access';
import { created, list, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { customerTarget } from './customers.access';
import { storeCreditListQuery } from './store-credit.query';
import type * as routes from './store-credit.routes';
import * as service from './store-credit.service';

export const getStoreCredit: AppRouteHandler<typeof routes.getStoreCredit> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'read', 'store-credit');
  const query = c.req.valid('query');
  const { balances, items, total } = await service.getStoreCredit(c.var.db, target.id, query, storeCreditListQuery);
  return list(
    c,
    items.map((e) => project(e, query.fields)),
    pagination(query.page, query.limit, total),
    'OK',
    { balances },
  );
};

export const adjustStoreCredit: AppRouteHandler<typeof routes.adjustStoreCredit> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'write', 'store-credit');
  const entry = await service.adjustStoreCredit(c.var.db, target.id, c.req.valid('json'), { actor: actorRef(c.var.principal) });
  return created(c, entry, `/api/customers/${target.id}/credit`, 'Store credit adjusted');
};
