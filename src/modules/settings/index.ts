import { crudRouter } from '../../lib/crud-router';
import { createRouter } from '../../lib/router';
import * as currencyHandlers from './currencies.handlers';
import * as currencyRoutes from './currencies.routes';
import * as settingsHandlers from './settings.handlers';
import * as settingsRoutes from './settings.routes';
import { taxRateHandlers } from './taxes.handlers';
import { taxRateRoutes } from './taxes.routes';

export const settingsRouter = createRouter()
  .openapi(settingsRoutes.getSettings, settingsHandlers.getSettings)
  .openapi(settingsRoutes.updateSettings, settingsHandlers.updateSettings)
  .openapi(currencyRoutes.listCurrencies, currencyHandlers.listCurrencies)
  .openapi(currencyRoutes.createCurrency, currencyHandlers.createCurrency)
  .openapi(currencyRoutes.getCurrency, currencyHandlers.getCurrency)
  .openapi(currencyRoutes.updateCurrency, currencyHandlers.updateCurrency)
  .openapi(currencyRoutes.deleteCurrency, currencyHandlers.deleteCurrency)
  .route('/', crudRouter(taxRateRoutes, taxRateHandlers));
