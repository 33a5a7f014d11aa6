import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './taxes.routes';
import * as service from './taxes.service';

export const listTaxRates: AppRouteHandler<typeof routes.listTaxRates> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listTaxRates(c.var.db, query);
  return list(c, items.map((item) => project(item, query.fields)), pagination(query.page, query.limit, total));
};

export const getTaxRate: AppRouteHandler<typeof routes.getTaxRate> = async (c) => {
  return ok(c, project(await service.getTaxRate(c.var.db, c.req.valid('param').id), c.req.valid('query').fields));
};

export const createTaxRate: AppRouteHandler<typeof routes.createTaxRate> = async (c) => {
  const rate = await service.createTaxRate(c.var.db, c.req.valid('json'));
  return created(c, rate, `/api/settings/taxes/${rate.id}`, 'Tax rate created');
};

export const updateTaxRate: AppRouteHandler<typeof routes.updateTaxRate> = async (c) => {
  return ok(c, await service.updateTaxRate(c.var.db, c.req.valid('param').id, c.req.valid('json')), 'Tax rate updated');
};

export const deleteTaxRate: AppRouteHandler<typeof routes.deleteTaxRate> = async (c) => {
  await service.deleteTaxRate(c.var.db, c.req.valid('param').id);
  return noContent(c);
};
