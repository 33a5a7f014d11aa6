import { ok } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './settings.routes';
import * as service from './settings.service';
import { DEPRECATION_HEADERS, LEGACY_FIELDS } from './legacy-shipping-settings';

export const getSettings: AppRouteHandler<typeof routes.getSettings> = async (c) => {
  return ok(c, project(await service.getSettings(c.var.db), c.req.valid('query').fields));
};

export const updateSettings: AppRouteHandler<typeof routes.updateSettings> = async (c) => {
  const patch = c.req.valid('json');
  const settings = await service.updateSettings(c.var.db, patch);
  if (LEGACY_FIELDS.some((field) => patch[field] !== undefined)) for (const [name, value] of Object.entries(DEPRECATION_HEADERS)) c.header(name, value);
  return ok(c, settings, 'Settings updated');
};
