import { crudRouter } from '../../lib/crud-router';
import { apiKeyHandlers } from './api-keys.handlers';
import { apiKeyRoutes } from './api-keys.routes';

export const apiKeysRouter = crudRouter(apiKeyRoutes, apiKeyHandlers);
