import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { config } from '../config';
import { type BodyLimit, bodyOver } from '../middleware/body-limit';
import { MULTIPART_ALLOWANCE, tooLarge } from '../modules/media/startup';

/** The panel's forms that carry the API's two large bodies (src/admin/routes/product-media.tsx, product-import.tsx). */
const PANEL_MEDIA_UPLOAD = /^\/admin\/products\/[^/]+\/media\/?$/;
const PANEL_IMPORT = /^\/admin\/products\/import\/?$/;

/**
 * The admin panel's body limits, outside the API's route policies: MAX_BODY_BYTES for every form,
 * except an image upload (MEDIA_MAX_BYTES) and a product import (IMPORT_MAX_BYTES), each with room
 * for the form around the file, as in the API.
 */
export function panelBodyLimit(c: Context<AppEnv>): BodyLimit {
  const settings = config(c.env);
  if (c.req.method === 'POST' && PANEL_MEDIA_UPLOAD.test(c.req.path)) {
    return { maxBytes: settings.MEDIA_MAX_BYTES + MULTIPART_ALLOWANCE, refusal: () => tooLarge(settings.MEDIA_MAX_BYTES) };
  }
  if (c.req.method === 'POST' && PANEL_IMPORT.test(c.req.path)) return bodyOver(settings.IMPORT_MAX_BYTES, MULTIPART_ALLOWANCE);
  return bodyOver(settings.MAX_BODY_BYTES);
}
