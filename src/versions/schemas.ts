import { z } from '@hono/zod-openapi';
import { LATEST_VERSION, VERSION_DATES } from './versions';

/** A dated version of the API, as a key, the settings and `GET /api` name it. */
export const ApiVersion = z.enum(VERSION_DATES).openapi({ example: LATEST_VERSION });
