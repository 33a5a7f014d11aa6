import { env } from 'cloudflare:workers';
import { workerFetch } from '../worker-fetch';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { imageFiles } from '../media/images';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { cookieIn, csrfIn, get, ORIGIN, pair, signIn } from './panel-client';

// The panel's form posts have the API's body limits (src/middleware/body-limit.ts): MAX_BODY_BYTES
// (64 KiB in the tests), MEDIA_MAX_BYTES for an image (256 KiB), IMPORT_MAX_BYTES for a CSV file.

const MAX_BODY = Number(env.MAX_BODY_BYTES);
const MAX_IMAGE = Number(env.MEDIA_MAX_BYTES);

async function adminSession() {
  const email = `limits-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin' });
  return (await signIn(email, 'correct horse battery')).session;
}

async function send(path: string, body: BodyInit, headers: Record<string, string>) {
  const res = await workerFetch(new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { Origin: ORIGIN, ...headers }, body, redirect: 'manual' }));
  return { res, html: await res.text() };
}

/** A body of `size` bytes that arrives in pieces with no Content-Length (the limit must count what it reads). */
function streamed(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const piece = new TextEncoder().encode('a'.repeat(Math.min(8192, left)));
      left -= piece.length;
      controller.enqueue(piece);
    },
  });
}

function form(fields: Record<string, string | File>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe('admin panel: body limits', () => {
  it('refuses a sign-in form over MAX_BODY_BYTES with 413 before reading it, declared or streamed', async () => {
    const page = await get('/admin/sign-in');
    const cookie = pair(cookieIn(page.res, 'admin_csrf'));
    const urlencoded = { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie };
    const padding = 'x'.repeat(MAX_BODY);
    // Even with a valid CSRF token: the size is refused first, so nobody's body is parsed.
    const declared = await send('/admin/sign-in', new URLSearchParams({ _csrf: csrfIn(page.html), email: 'a@example.com', password: padding }), urlencoded);
    expect(declared.res.status, declared.html.slice(0, 200)).toBe(413);
    expect(declared.html).toContain(`larger than the limit of ${MAX_BODY} bytes`);
    const stream = await send('/admin/sign-in', streamed(MAX_BODY + 1), urlencoded);
    expect(stream.res.status).toBe(413);
    // Under the limit the form is read as before (a wrong password is 401, not a size error).
    const small = await send('/admin/sign-in', new URLSearchParams({ _csrf: csrfIn(page.html), email: `nobody-${uid()}@example.com`, password: 'wrong' }), urlencoded);
    expect(small.res.status).toBe(401);
  });

  it('refuses a signed-in form over MAX_BODY_BYTES with 413, before the CSRF check reads it', async () => {
    const session = await adminSession();
    const big = await send('/admin/brands', new URLSearchParams({ _csrf: 'not checked yet', name: 'x'.repeat(MAX_BODY) }), {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: session,
    });
    expect(big.res.status).toBe(413);
  });

  it('takes an image up to MEDIA_MAX_BYTES on the product page, and refuses a larger upload with 413', async () => {
    const product = await createProduct(await adminKey());
    const session = await adminSession();
    const csrf = csrfIn((await get(`/admin/products/${product.id}`, session)).html);
    // Larger than MAX_BODY_BYTES: the image's own limit applies.
    const image = new Uint8Array(MAX_IMAGE);
    image.set(imageFiles['image/png']());
    expect(image.length).toBeGreaterThan(MAX_BODY);
    const upload = (bytes: Uint8Array) =>
      send(`/admin/products/${product.id}/media`, form({ _csrf: csrf, alt: 'Big', file: new File([bytes], 'big.png', { type: 'image/png' }) }), { Cookie: session });
    const accepted = await upload(image);
    expect(accepted.res.status).toBe(303);
    expect(decodeURIComponent(decodeURIComponent(cookieIn(accepted.res, 'admin_flash') ?? ''))).toContain('Image uploaded');
    const tooBig = await upload(new Uint8Array(MAX_IMAGE + 64 * 1024 + 1));
    expect(tooBig.res.status).toBe(413);
    expect(tooBig.html).toContain(`Images are at most ${MAX_IMAGE} bytes`);
    expect((await api(`/api/products/${product.id}`, { key: await adminKey() })).body.data.media).toHaveLength(1);
  });

  it('takes a CSV file larger than MAX_BODY_BYTES on the import page', async () => {
    const session = await adminSession();
    const csrf = csrfIn((await get('/admin/products/import', session)).html);
    const rows = Array.from({ length: Math.ceil(MAX_BODY / 20) }, (_, i) => `Body limit ${uid()} ${i},${i + 1}.50`);
    const csv = ['name,price', ...rows].join('\n');
    expect(csv.length).toBeGreaterThan(MAX_BODY);
    const checked = await send('/admin/products/import', form({ _csrf: csrf, step: 'check', file: new File([csv], 'products.csv', { type: 'text/csv' }) }), { Cookie: session });
    expect(checked.res.status, checked.html.slice(0, 300)).toBe(200);
    expect(checked.html).toContain('Checked: nothing was written');
    expect(checked.html).toContain(`${rows.length} products, ${rows.length} to create`);
  });
});
