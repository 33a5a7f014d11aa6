import { isStaff } from '../../lib/access';
import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './currencies.routes';
import * as service from './currencies.service';

export const listCurrencies: AppRouteHandler<typeof routes.listCurrencies> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listCurrencies(c.var.db, query, isStaff(c.var.principal, 'settings'));
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getCurrency: AppRouteHandler<typeof routes.getCurrency> = async (c) => {
  const currency = await service.getCurrency(c.var.db, c.req.valid('param').code, isStaff(c.var.principal, 'settings'));
  return ok(c, project(currency, c.req.valid('query').fields));
};

export const createCurrency: AppRouteHandler<typeof routes.createCurrency> = async (c) => {
  const currency = await service.createCurrency(c.var.db, c.req.valid('json'));
  return created(c, currency, `/api/settings/currencies/${currency.code}`, 'Currency created');
};

export const updateCurrency: AppRouteHandler<typeof routes.updateCurrency> = async (c) => {
  return ok(c, await service.updateCurrency(c.var.db, c.req.valid('param').code, c.req.valid('json')), 'Currency updated');
};

export const deleteCurrency: AppRouteHandler<typeof routes.deleteCurrency> = async (c) => {
  await service.deleteCurrency(c.var.db, c.req.valid('param').code);
  return noContent(c);
};
