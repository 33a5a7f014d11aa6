import { crudRouter } from '../../lib/crud-router';
import { userHandlers } from './users.handlers';
import { userRoutes } from './users.routes';

export const usersRouter = crudRouter(userRoutes, userHandlers);
