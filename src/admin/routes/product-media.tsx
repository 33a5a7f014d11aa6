import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { mediaBaseUrl, mediaRoutes as routes, mediaService as service, mediaMaxBytes, uploadFromForm } from '../../modules/media';
import { UpdateMediaBody } from '../../modules/media/schemas';
import { productWriter } from '../../modules/products';
import { guard } from '../context';
import { failure, num, readForm, redirectWith, str, validate } from '../form-data';

/** /admin/products/{id}/media: upload, edit, move and delete a product's images, through the API's media service. */
export const productMediaRoutes = new Hono<AppEnv>()
  .post('/:id/media', guard(routes.uploadMedia), async (c) => {
    const id = c.req.param('id');
    const back = `/admin/products/${id}#images`;
    try {
      // Parsed (and cached) by the panel's CSRF check; `file` is the uploaded File.
      const body = await c.req.parseBody();
      const alt = typeof body.alt === 'string' && body.alt.trim() ? body.alt : undefined;
      const upload = await uploadFromForm(body.file, { alt }, mediaMaxBytes(c.env));
      await service.addMedia(c.var.db, { bucket: c.env.MEDIA, baseUrl: mediaBaseUrl(c.env, c.req.url) }, id, upload, productWriter(c.var.principal));
      return redirectWith(c, back, 'Image uploaded.');
    } catch (error) {
      const state = failure(error, {});
      const problems =
        state.message ??
        Object.entries(state.errors)
          .map(([field, message]) => `${field} ${message}`)
          .join('; ');
      return redirectWith(c, back, `The image was not uploaded: ${problems}`, 'error');
    }
  })
  .post('/:id/media/:mediaId', guard(routes.updateMedia), async (c) => {
    const { id, mediaId } = c.req.param();
    const form = await readForm(c);
    const back = `/admin/products/${id}#images`;
    const altField = `alt-${mediaId}`;
    const patch = { ...(altField in form ? { alt: str(form, altField) ?? null } : {}), ...(form.position ? { position: num(form, 'position') } : {}) };
    try {
      await service.updateMedia(c.var.db, id, mediaId, validate(UpdateMediaBody, patch), productWriter(c.var.principal));
      return redirectWith(c, back, 'position' in patch ? 'Image moved.' : 'Alt text saved.');
    } catch (error) {
      const state = failure(error, {});
      return redirectWith(c, back, state.message ?? Object.values(state.errors).join('; '), 'error');
    }
  })
  .post('/:id/media/:mediaId/delete', guard(routes.deleteMedia), async (c) => {
    const { id, mediaId } = c.req.param();
    await service.deleteMedia(c.var.db, c.env.MEDIA, id, mediaId, productWriter(c.var.principal));
    return redirectWith(c, `/admin/products/${id}#images`, 'Image deleted.');
  });
