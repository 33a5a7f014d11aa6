import { createRouter } from '../../lib/router';
import { getApiIndex } from './api-index.handlers';
import { apiIndex } from './api-index.routes';

export const apiIndexRouter = createRouter().openapi(apiIndex, getApiIndex);
