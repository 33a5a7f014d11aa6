import { crudRouter } from '../../lib/crud-router';
import { createRouter } from '../../lib/router';
import { currencyHandlers } from './currencies.handlers';
import { currencyRoutes } from './currencies.routes';
import * as settingsHandlers from './settings.handlers';
import * as settingsRoutes from './settings.routes';
import { taxClassHandlers } from './tax-classes.handlers';
import { taxClassRoutes } from './tax-classes.routes';
import { taxRateHandlers } from './taxes.handlers';
import { taxRateRoutes } from './taxes.routes';

export const settingsRouter = createRouter()
  .openapi(settingsRoutes.getSettings, settingsHandlers.getSettings)
  .openapi(settingsRoutes.updateSettings, settingsHandlers.updateSettings)
  .route('/', crudRouter(currencyRoutes, currencyHandlers))
  .route('/', crudRouter(taxClassRoutes, taxClassHandlers))
  .route('/', crudRouter(taxRateRoutes, taxRateHandlers));
