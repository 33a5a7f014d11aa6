import { ok } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import type * as routes from './reports.routes';
import * as service from './reports.service';

export const salesReport: AppRouteHandler<typeof routes.salesReport> = async (c) => ok(c, await service.salesReport(c.var.db, c.req.valid('query')));

export const customerReport: AppRouteHandler<typeof routes.customerReport> = async (c) => ok(c, await service.customerReport(c.var.db, c.req.valid('query')));

export const productReport: AppRouteHandler<typeof routes.productReport> = async (c) => ok(c, await service.productReport(c.var.db, c.req.valid('query')));

export const promotionReport: AppRouteHandler<typeof routes.promotionReport> = async (c) => ok(c, await service.promotionReport(c.var.db, c.req.valid('query')));
