import { crudRouter } from '../../lib/crud-router';
import { brandHandlers } from './brands.handlers';
import { brandRoutes } from './brands.routes';

export const brandsRouter = crudRouter(brandRoutes, brandHandlers);
