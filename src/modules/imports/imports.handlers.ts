import { list, ok, pagination } from '../../lib/envelope';
import { project } from '../../lib/query';
import { ApiError, detailOf } from '../../lib/errors';
import { actorRef, vendorScope } from '../../lib/access';
import type { AppRouteHandler } from '../../lib/openapi';
import type * as routes from './imports.routes';
import * as service from './imports.service';

export const importProducts: AppRouteHandler<typeof routes.importProducts> = async (c) => {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/csv' && type !== 'text/plain' && type !== 'application/octet-stream') {
    throw new ApiError('INVALID_REQUEST', 'Send the file as Content-Type: text/csv', {
      status: 415,
      details: [detailOf({ field: 'Content-Type', problem: `must be text/csv, not '${type || 'none'}'` })],
    });
  }
  const csv = await c.req.text();
  if (c.req.valid('query').dry_run) return ok(c, await service.dryRun(c.var.db, csv), 'Dry run: nothing was written');
  const started = await service.startImport(c.var.db, c.env.IMPORTS_QUEUE, csv, { actor: actorRef(c.var.principal), vendorId: vendorScope(c.var.principal) });
  c.header('Location', `/api/imports/${started.id}`);
  return c.json({ success: true as const, data: started, message: 'Import queued' }, 202);
};

export const listImports: AppRouteHandler<typeof routes.listImports> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listImports(c.var.db, query, vendorScope(c.var.principal));
  return list(
    c,
    items.map((i) => project(i, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getImport: AppRouteHandler<typeof routes.getImport> = async (c) => ok(c, await service.getImport(c.var.db, c.req.valid('param').id, vendorScope(c.var.principal)));
