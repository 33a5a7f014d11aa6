import { crudRouter } from '../../lib/crud-router';
import { menuHandlers } from './menus.handlers';
import { menuRoutes } from './menus.routes';

export const menusRouter = crudRouter(menuRoutes, menuHandlers);
