import { createRouter } from '../../lib/router';
import { getMediaFile } from './media.files';
import * as handlers from './media.handlers';
import * as routes from './media.routes';

/** /api/products/{id}/media: a product's images. */
export const mediaRouter = createRouter()
  .openapi(routes.listMedia, handlers.listMedia)
  .openapi(routes.uploadMedia, handlers.uploadMedia)
  .openapi(routes.getMedia, handlers.getMedia)
  .openapi(routes.updateMedia, handlers.updateMedia)
  .openapi(routes.deleteMedia, handlers.deleteMedia);

/** /media/{key}: the files themselves, outside /api (no credential, no rate limit). */
export const mediaFilesRouter = createRouter().openapi(routes.getMediaFile, getMediaFile);
