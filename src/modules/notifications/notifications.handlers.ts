import { list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { notificationListQuery, templateListQuery } from './notifications.query';
import type * as routes from './notifications.routes';
import * as service from './notifications.service';

export const listNotifications: AppRouteHandler<typeof routes.listNotifications> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listNotifications(c.var.db, query, notificationListQuery);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getNotification: AppRouteHandler<typeof routes.getNotification> = async (c) => {
  return ok(c, project(await service.getNotification(c.var.db, c.req.valid('param').id), c.req.valid('query').fields));
};

export const listTemplates: AppRouteHandler<typeof routes.listTemplates> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listTemplates(c.var.db, query, templateListQuery);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getTemplate: AppRouteHandler<typeof routes.getTemplate> = async (c) => {
  return ok(c, project(await service.getTemplate(c.var.db, c.req.valid('param').id), c.req.valid('query').fields));
};

export const updateTemplate: AppRouteHandler<typeof routes.updateTemplate> = async (c) => {
  return ok(c, await service.updateTemplate(c.var.db, c.var.principal, c.req.valid('param').id, c.req.valid('json')), 'Template updated');
};

export const previewTemplate: AppRouteHandler<typeof routes.previewTemplate> = async (c) => {
  return ok(c, await service.previewTemplate(c.var.db, c.req.valid('param').id, c.req.valid('json')), 'Rendered');
};

export const resetTemplate: AppRouteHandler<typeof routes.resetTemplate> = async (c) => {
  return ok(c, await service.resetTemplate(c.var.db, c.var.principal, c.req.valid('param').id), 'Template reset to its default');
};
