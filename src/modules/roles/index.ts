import { createRouter } from '../../lib/router';
import * as handlers from './roles.handlers';
import * as routes from './roles.routes';

export const rolesRouter = createRouter()
  .openapi(routes.listRoles, handlers.listRoles)
  .openapi(routes.createRole, handlers.createRole)
  .openapi(routes.getRole, handlers.getRole)
  .openapi(routes.updateRole, handlers.updateRole)
  .openapi(routes.deleteRole, handlers.deleteRole);
