import { createRouter } from '../../lib/router';
import * as handlers from './users.handlers';
import * as routes from './users.routes';

export const usersRouter = createRouter()
  .openapi(routes.listUsers, handlers.listUsers)
  .openapi(routes.createUser, handlers.createUser)
  .openapi(routes.getUser, handlers.getUser)
  .openapi(routes.updateUser, handlers.updateUser)
  .openapi(routes.deleteUser, handlers.deleteUser);
