import { createRouter } from '../../lib/router';
import { getHealth } from './health.handlers';
import { health } from './health.routes';

export const healthRouter = createRouter().openapi(health, getHealth);
