import { crudRouter } from '../../lib/crud-router';
import { vendorHandlers } from './vendors.handlers';
import { vendorRoutes } from './vendors.routes';

export const vendorsRouter = crudRouter(vendorRoutes, vendorHandlers);
