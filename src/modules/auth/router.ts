import { createRouter } from '../../lib/router';
import * as handlers from './auth.handlers';
import * as routes from './auth.routes';

export const authRouter = createRouter()
  .openapi(routes.register, handlers.register)
  .openapi(routes.login, handlers.login)
  .openapi(routes.me, handlers.me)
  .openapi(routes.changePassword, handlers.changePassword)
  .openapi(routes.bootstrap, handlers.bootstrap)
  .openapi(routes.requestPasswordReset, handlers.requestPasswordReset)
  .openapi(routes.confirmPasswordReset, handlers.confirmPasswordReset);
