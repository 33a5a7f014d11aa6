import { crudRouter } from '../../lib/crud-router';
import { pageHandlers } from './pages.handlers';
import { pageRoutes } from './pages.routes';

export const pagesRouter = crudRouter(pageRoutes, pageHandlers);
