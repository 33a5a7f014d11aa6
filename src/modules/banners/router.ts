import { crudRouter } from '../../lib/crud-router';
import { bannerHandlers } from './banners.handlers';
import { bannerRoutes } from './banners.routes';

export const bannersRouter = crudRouter(bannerRoutes, bannerHandlers);
