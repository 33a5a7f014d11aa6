import { createRouter } from '../../lib/router';
import * as handlers from './returns.handlers';
import * as routes from './returns.routes';

export const returnsRouter = createRouter()
  .openapi(routes.createReturn, handlers.createReturn)
  .openapi(routes.listReturns, handlers.listReturns)
  .openapi(routes.getReturn, handlers.getReturn)
  .openapi(routes.updateReturn, handlers.updateReturn)
  .openapi(routes.exchangeReturn, handlers.exchangeReturn);
