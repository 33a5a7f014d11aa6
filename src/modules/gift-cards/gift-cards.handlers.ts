import { actorRef } from '../../lib/access';
import { crudHandlers } from '../../lib/crud-handlers';
import { ok } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import type { ParsedListQuery } from '../../lib/query';
import { giftCardSecret } from '../ledger';
import type { giftCardListQuery } from './gift-cards.query';
import type * as routes from './gift-cards.routes';
import type { CreateGiftCardInput } from './gift-cards.schemas';
import * as service from './gift-cards.service';

export const giftCardHandlers = crudHandlers(
  (c) => ({
    list: (db, query: ParsedListQuery<typeof giftCardListQuery.filters>) => service.listGiftCards(db, query),
    create: (db, input: CreateGiftCardInput) => service.issueGiftCard(db, giftCardSecret(c.env), input, actorRef(c.var.principal)),
    update: (db, id: string, patch) => service.updateGiftCard(db, id, patch),
  }),
  { path: '/gift-cards', noun: 'gift card', createdMessage: 'Gift card issued; hand over the code now, it is not shown again' },
);

export const getGiftCard: AppRouteHandler<typeof routes.getGiftCard> = async (c) => ok(c, await service.getGiftCard(c.var.db, c.req.valid('param').id));
