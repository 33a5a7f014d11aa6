import { crudRouter } from '../../lib/crud-router';
import { roleHandlers } from './roles.handlers';
import { roleRoutes } from './roles.routes';

export const rolesRouter = crudRouter(roleRoutes, roleHandlers);
