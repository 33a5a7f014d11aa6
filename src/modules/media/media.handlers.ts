import type { Principal } from '../../lib/access';
import { productVisibility, productWriter } from '../products';
import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import type { Bindings } from '../../env';
import type * as routes from './media.routes';
import { MAX_MEDIA_PER_PRODUCT } from '../products/schemas';
import * as service from './media.service';
import { mediaMaxBytes, readUpload } from './media.upload';
import { config } from '../../config';

type WithPrincipal = { var: { principal: Principal } };
const visibility = (c: WithPrincipal) => productVisibility(c.var.principal);
const scope = (c: WithPrincipal) => productWriter(c.var.principal);

/** Where image URLs start: MEDIA_BASE_URL, or the origin this request came to + /media. */
export function mediaBaseUrl(env: Pick<Bindings, 'MEDIA_BASE_URL'>, requestUrl: string): string {
  return config(env).MEDIA_BASE_URL ?? `${new URL(requestUrl).origin}/media`;
}

export const listMedia: AppRouteHandler<typeof routes.listMedia> = async (c) => {
  const media = await service.listMedia(c.var.db, c.req.valid('param').id, visibility(c));
  return list(c, media, pagination(1, MAX_MEDIA_PER_PRODUCT, media.length));
};

export const getMedia: AppRouteHandler<typeof routes.getMedia> = async (c) => {
  const { id, mediaId } = c.req.valid('param');
  return ok(c, await service.getMedia(c.var.db, id, mediaId, visibility(c)));
};

export const uploadMedia: AppRouteHandler<typeof routes.uploadMedia> = async (c) => {
  const { id } = c.req.valid('param');
  const upload = await readUpload(c.req.raw, c.req.query(), mediaMaxBytes(c.env));
  const store = { bucket: c.env.MEDIA, baseUrl: mediaBaseUrl(c.env, c.req.url) };
  const media = await service.addMedia(c.var.db, store, id, upload, scope(c));
  return created(c, media, `/api/products/${id}/media/${media.id}`, 'Image uploaded');
};

export const updateMedia: AppRouteHandler<typeof routes.updateMedia> = async (c) => {
  const { id, mediaId } = c.req.valid('param');
  return ok(c, await service.updateMedia(c.var.db, id, mediaId, c.req.valid('json'), scope(c)), 'Image updated');
};

export const deleteMedia: AppRouteHandler<typeof routes.deleteMedia> = async (c) => {
  const { id, mediaId } = c.req.valid('param');
  await service.deleteMedia(c.var.db, c.env.MEDIA, id, mediaId, scope(c));
  return noContent(c);
};
