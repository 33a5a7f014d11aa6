import { crudRouter } from '../../lib/crud-router';
import { getGiftCard, giftCardHandlers } from './gift-cards.handlers';
import { getGiftCard as getGiftCardRoute, giftCardRoutes } from './gift-cards.routes';

export const giftCardsRouter = crudRouter(giftCardRoutes, giftCardHandlers).openapi(getGiftCardRoute, getGiftCard);
