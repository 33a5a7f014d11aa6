import { env } from 'cloudflare:workers';
import { workerFetch } from '../worker-fetch';
import { expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { imageFiles } from '../media/images';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { cookieIn, csrfIn, get, ORIGIN, post, signIn } from './panel-client';

// The product page's images: a plain file input (multipart, no script), moves and delete, through the API's media service.

async function adminSession() {
  const email = `media-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin' });
  return (await signIn(email, 'correct horse battery')).session;
}

async function upload(productId: string, session: string, csrf: string, file: File, alt: string) {
  const form = new FormData();
  form.set('_csrf', csrf);
  form.set('file', file);
  form.set('alt', alt);
  return workerFetch(new Request(`${ORIGIN}/admin/products/${productId}/media`, { method: 'POST', headers: { Cookie: session, Origin: ORIGIN }, body: form, redirect: 'manual' }));
}

const flash = (res: Response) => decodeURIComponent(decodeURIComponent(cookieIn(res, 'admin_flash') ?? ''));
const mediaOf = async (id: string) =>
  (await api(`/api/products/${id}`, { key: await adminKey() })).body.data.media as { id: string; alt: string | null; url: string; key: string }[];

it('uploads images from the product page with a file input, moves one earlier, edits its alt text and deletes one', async () => {
  const product = await createProduct(await adminKey());
  const session = await adminSession();
  const page = await get(`/admin/products/${product.id}`, session);
  expect(page.html).toContain('enctype="multipart/form-data"');
  expect(page.html).toContain('type="file" name="file"');
  const csrf = csrfIn(page.html);

  for (const alt of ['First', 'Second']) {
    const res = await upload(product.id, session, csrf, new File([imageFiles['image/png']()], `${alt}.png`, { type: 'image/png' }), alt);
    expect(res.status).toBe(303);
    expect(flash(res)).toContain('Image uploaded');
  }
  let media = await mediaOf(product.id);
  expect(media.map((m) => m.alt)).toEqual(['First', 'Second']);
  const shown = await get(`/admin/products/${product.id}`, session);
  expect(shown.html).toContain(`src="${media[1]!.url}"`);

  const moved = await post(`/admin/products/${product.id}/media/${media[1]!.id}`, { _csrf: csrf, position: '0' }, session);
  expect(moved.res.status).toBe(303);
  expect((await mediaOf(product.id)).map((m) => m.alt)).toEqual(['Second', 'First']);
  await post(`/admin/products/${product.id}/media/${media[0]!.id}`, { _csrf: csrf, [`alt-${media[0]!.id}`]: 'First, renamed' }, session);
  expect((await mediaOf(product.id)).map((m) => m.alt)).toEqual(['Second', 'First, renamed']);

  const deleted = await post(`/admin/products/${product.id}/media/${media[1]!.id}/delete`, { _csrf: csrf }, session);
  expect(deleted.res.status).toBe(303);
  media = await mediaOf(product.id);
  expect(media.map((m) => m.alt)).toEqual(['First, renamed']);
  expect(await env.MEDIA.head(media[0]!.key)).not.toBeNull();
});

it('says why an upload was refused: a file that is not an image, with no image stored', async () => {
  const product = await createProduct(await adminKey());
  const session = await adminSession();
  const csrf = csrfIn((await get(`/admin/products/${product.id}`, session)).html);
  const res = await upload(product.id, session, csrf, new File(['%PDF-1.4 a document'], 'doc.png', { type: 'image/png' }), 'Not an image');
  expect(res.status).toBe(303);
  expect(flash(res)).toContain('application/pdf');
  expect(await mediaOf(product.id)).toEqual([]);
});
