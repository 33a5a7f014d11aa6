import { swaggerUI } from '@hono/swagger-ui';
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { docsAssetsRouter } from './assets';

/** Where the docs page finds swagger-ui-dist's files (src/docs/assets.ts); @hono/swagger-ui appends `/swagger-ui-dist/<file>`. */
const DOCS_ASSETS_BASE = '/docs/assets';

/**
 * `/docs`: Swagger UI over /api/openapi.json, entirely served by this Worker, so it works offline and
 * on networks that block CDNs. `validatorUrl: 'none'` stops Swagger UI from calling validator.swagger.io;
 * tags start collapsed, since Swagger UI 5.35 stalls rendering all 137 operations expanded at once.
 */
export const docsRouter = new Hono<AppEnv>()
  .get('/', swaggerUI({ url: '/api/openapi.json', title: 'Store API', baseUrl: DOCS_ASSETS_BASE, validatorUrl: 'none', docExpansion: 'none' }))
  .route('/assets', docsAssetsRouter);
