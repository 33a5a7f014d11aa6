import { crudRouter } from '../../lib/crud-router';
import { priceListHandlers } from './price-lists.handlers';
import { priceListRoutes } from './price-lists.routes';

export const priceListsRouter = crudRouter(priceListRoutes, priceListHandlers);
