import { list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './replays.routes';
import * as service from './replays.service';

export const replayWebhook: AppRouteHandler<typeof routes.replayWebhook> = async (c) => {
  const replay = await service.createReplay(c.var.db, c.env, c.req.valid('param').id, c.req.valid('json'));
  // biome-ignore lint/suspicious/noExplicitAny: the route declares the 202 body; c.json's inference cannot match it.
  return c.json({ success: true, data: replay, message: 'Replay queued' } as any, 202);
};

export const listReplays: AppRouteHandler<typeof routes.listReplays> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listReplays(c.var.db, c.req.valid('param').id, query);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getReplay: AppRouteHandler<typeof routes.getReplay> = async (c) => {
  const { id, replayId } = c.req.valid('param');
  return ok(c, project(await service.getReplay(c.var.db, id, replayId), c.req.valid('query').fields));
};
