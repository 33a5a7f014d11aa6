import { crudRouter } from '../../lib/crud-router';
import { createRouter } from '../../lib/router';
import { addressHandlers } from './addresses.handlers';
import { addressRoutes } from './addresses.routes';
import * as handlers from './customers.handlers';
import * as routes from './customers.routes';
import * as creditHandlers from './store-credit.handlers';
import * as creditRoutes from './store-credit.routes';

export const customersRouter = createRouter()
  .openapi(routes.listCustomers, handlers.listCustomers)
  .openapi(routes.createCustomer, handlers.createCustomer)
  .openapi(routes.getCustomer, handlers.getCustomer)
  .openapi(routes.updateCustomer, handlers.updateCustomer)
  .openapi(routes.deleteCustomer, handlers.deleteCustomer)
  .route('/', crudRouter(addressRoutes, addressHandlers))
  .openapi(creditRoutes.getStoreCredit, creditHandlers.getStoreCredit)
  .openapi(creditRoutes.adjustStoreCredit, creditHandlers.adjustStoreCredit);
