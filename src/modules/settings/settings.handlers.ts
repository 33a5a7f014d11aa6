import { ok } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './settings.routes';
import * as service from './settings.service';

export const getSettings: AppRouteHandler<typeof routes.getSettings> = async (c) => {
  return ok(c, project(await service.getSettings(c.var.db), c.req.valid('query').fields));
};

export const updateSettings: AppRouteHandler<typeof routes.updateSettings> = async (c) => {
  return ok(c, await service.updateSettings(c.var.db, c.req.valid('json')), 'Settings updated');
};
