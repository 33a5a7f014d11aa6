import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { validationHook } from './validation';

/** A router for one module: every router shares the validation hook, so no error escapes the envelope. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
