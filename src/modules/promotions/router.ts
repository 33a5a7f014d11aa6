import { crudRouter } from '../../lib/crud-router';
import { promotionHandlers } from './promotions.handlers';
import { promotionRoutes } from './promotions.routes';

export const promotionsRouter = crudRouter(promotionRoutes, promotionHandlers);
