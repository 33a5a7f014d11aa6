import { crudRouter } from '../../lib/crud-router';
import * as handlers from './customer-groups.handlers';
import * as routes from './customer-groups.routes';

export const customerGroupsRouter = crudRouter(routes.customerGroupRoutes, handlers.customerGroupHandlers)
  .openapi(routes.listMembers, handlers.listMembers)
  .openapi(routes.addMembers, handlers.addMembers)
  .openapi(routes.removeMember, handlers.removeMember);
