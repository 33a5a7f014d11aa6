import { crudRouter } from '../../lib/crud-router';
import { categoryHandlers } from './categories.handlers';
import { categoryRoutes } from './categories.routes';

export const categoriesRouter = crudRouter(categoryRoutes, categoryHandlers);
