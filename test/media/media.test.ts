import { env } from 'cloudflare:workers';
import { workerFetch } from '../worker-fetch';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, mediaUnused } from '../../src/db/schema';
import { HOURLY_CRON, runScheduled } from '../../src/scheduled';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser } from '../helpers';
import { imageFiles, type ImageType, sha256Hex } from './images';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** Uploads `bytes` as the raw body. */
function upload(productId: string, bytes: Uint8Array, contentType: string, query = '', auth = key) {
  return api(`/api/products/${productId}/media${query}`, { method: 'POST', key: auth, headers: { 'Content-Type': contentType }, body: bytes });
}

function uploadForm(productId: string, bytes: Uint8Array, type: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set('file', new File([bytes], 'photo', { type }));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return api(`/api/products/${productId}/media`, { method: 'POST', key, body: form });
}

const path = (url: string) => new URL(url).pathname;
const product = async (id: string) => (await api(`/api/products/${id}`, { key })).body.data;

describe('product media', () => {
  it('stores each accepted type under its SHA-256, with its size in pixels, and serves the same bytes for a year', async () => {
    const p = await createProduct(key);
    const sizes: Record<ImageType, [number, number]> = {
      'image/png': [3, 2],
      'image/jpeg': [640, 480],
      'image/gif': [16, 9],
      'image/webp': [800, 600],
      'image/avif': [1200, 900],
    };
    for (const [type, [width, height]] of Object.entries(sizes) as [ImageType, [number, number]][]) {
      const bytes = imageFiles[type](width, height);
      const res = await upload(p.id, bytes, type, `?alt=${encodeURIComponent(`A ${type}`)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const media = res.body.data;
      const sha = await sha256Hex(bytes);
      expect(media).toMatchObject({ contentType: type, byteSize: bytes.length, width, height, alt: `A ${type}`, variantId: null });
      expect(media.key).toBe(`${sha}.${{ 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif' }[type]}`);
      expect(media.url).toBe(`http://store.test/media/${media.key}`);
      expect(res.headers.get('Location')).toBe(`/api/products/${p.id}/media/${media.id}`);

      const file = await fetchFile(path(media.url));
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
      expect(file.headers.get('Content-Type')).toBe(type);
      expect(file.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('ETag')).toMatch(/^"/);
    }
    const shown = await product(p.id);
    expect(shown.media.map((m: { contentType: string; position: number }) => [m.contentType, m.position])).toEqual(Object.keys(sizes).map((type, position) => [type, position]));
  });

  it('takes multipart/form-data with alt, position and variant as fields, and lets application/octet-stream bytes decide', async () => {
    const p = await createProduct(key, { variants: [{ sku: null, options: { color: 'red' } }, { options: { color: 'blue' } }] });
    const first = await upload(p.id, imageFiles['image/png'](), 'application/octet-stream');
    expect(first.status).toBe(201);
    expect(first.body.data.contentType).toBe('image/png');
    const res = await uploadForm(p.id, imageFiles['image/webp'](), 'image/webp', { alt: 'Blue, side', position: '0', variantId: p.variants[1].id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ alt: 'Blue, side', position: 0, variantId: p.variants[1].id, contentType: 'image/webp' });
    expect((await product(p.id)).media.map((m: { id: string }) => m.id)).toEqual([res.body.data.id, first.body.data.id]);

    expectError(await uploadForm(p.id, imageFiles['image/png'](), 'image/png', { variantId: 'var_nope' }), 422, 'VALIDATION_ERROR');
    expectError(await uploadForm(p.id, imageFiles['image/png'](), 'image/png', { position: 'first' }), 422, 'VALIDATION_ERROR');
    const missing = new FormData();
    missing.set('alt', 'no file');
    const noFile = await api(`/api/products/${p.id}/media`, { method: 'POST', key, body: missing });
    expectError(noFile, 422, 'VALIDATION_ERROR');
    expect(noFile.body.error.details[0].field).toBe('file');
  });

  it('refuses a spoofed or unsupported type with 415 saying what was found, an empty file with 422, and an oversize one with 413', async () => {
    const p = await createProduct(key);
    const spoofed = await upload(p.id, imageFiles['image/png'](), 'image/jpeg');
    expectError(spoofed, 415, 'INVALID_REQUEST');
    expect(spoofed.body.error.message).toBe('The file was sent as image/jpeg but is image/png');
    expect(spoofed.body.error.details).toEqual({
      field: 'file',
      issue: 'is image/png but was sent as image/jpeg',
      code: 'invalid_value',
      message: 'file is image/png but was sent as image/jpeg',
    });

    const pdf = await upload(p.id, new TextEncoder().encode('%PDF-1.7 not an image'), 'image/png');
    expectError(pdf, 415, 'INVALID_REQUEST');
    expect(pdf.body.error.message).toContain('application/pdf');
    const svg = await uploadForm(p.id, new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml');
    expectError(svg, 415, 'INVALID_REQUEST');
    expect(svg.body.error.message).toContain('image/svg+xml');
    expectError(await upload(p.id, imageFiles['image/png'](), 'text/plain'), 415, 'INVALID_REQUEST');
    expectError(await upload(p.id, new Uint8Array(), 'image/png'), 422, 'VALIDATION_ERROR');

    const max = Number(env.MEDIA_MAX_BYTES);
    const big = new Uint8Array(max + 1);
    big.set(imageFiles['image/png']());
    const tooBig = await upload(p.id, big, 'image/png');
    expectError(tooBig, 413, 'INVALID_REQUEST');
    expect(tooBig.body.error.message).toContain(`at most ${max} bytes`);
    expectError(await uploadForm(p.id, big, 'image/png'), 413, 'INVALID_REQUEST');
    // Exactly the limit is fine, and larger than the JSON body limit.
    const atLimit = await upload(p.id, big.subarray(0, max), 'image/png');
    expect(atLimit.status).toBe(201);
    expect((await product(p.id)).media).toHaveLength(1);
  });

  it('stores a file uploaded twice once, and deletes it with the last image that uses it', async () => {
    const [a, b] = [await createProduct(key), await createProduct(key)];
    const bytes = imageFiles['image/jpeg']();
    const one = (await upload(a.id, bytes, 'image/jpeg')).body.data;
    const two = (await upload(b.id, bytes, 'image/jpeg')).body.data;
    expect(two.key).toBe(one.key);
    expect(two.id).not.toBe(one.id);
    const listed = await env.MEDIA.list({ prefix: one.key.slice(0, 64) });
    expect(listed.objects.map((o) => o.key)).toEqual([one.key]);

    expect((await api(`/api/products/${a.id}/media/${one.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect(await env.MEDIA.head(one.key)).not.toBeNull();
    expect((await fetchFile(path(two.url))).status).toBe(200);
    // Deleting the product deletes its images, and the file that only they used.
    expect((await api(`/api/products/${b.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect(await env.MEDIA.head(one.key)).toBeNull();
    expect((await fetchFile(path(two.url))).status).toBe(404);
    expect(await db().select().from(mediaUnused).where(eq(mediaUnused.key, one.key))).toEqual([]);
  });

  it('moves an image to a place, closes up the gap when one is deleted, and edits alt text, each as a product.updated', async () => {
    const p = await createProduct(key);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await upload(p.id, imageFiles['image/gif'](), 'image/gif')).body.data.id);
    const order = async () => (await api(`/api/products/${p.id}/media`)).body.data.map((m: { id: string; position: number }) => [m.id, m.position]);

    const moved = await api(`/api/products/${p.id}/media/${ids[3]}`, { method: 'PATCH', key, json: { position: 0, alt: 'Front' } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ position: 0, alt: 'Front' });
    expect(await order()).toEqual([
      [ids[3], 0],
      [ids[0], 1],
      [ids[1], 2],
      [ids[2], 3],
    ]);
    // Past the end means last.
    await api(`/api/products/${p.id}/media/${ids[0]}`, { method: 'PATCH', key, json: { position: 49 } });
    expect(await order()).toEqual([
      [ids[3], 0],
      [ids[1], 1],
      [ids[2], 2],
      [ids[0], 3],
    ]);
    await api(`/api/products/${p.id}/media/${ids[1]}`, { method: 'DELETE', key });
    expect(await order()).toEqual([
      [ids[3], 0],
      [ids[2], 1],
      [ids[0], 2],
    ]);

    const updates = await db().select().from(events).where(eq(events.type, 'product.updated'));
    const mine = updates.filter((e) => (e.data as { productId: string }).productId === p.id);
    const last = mine.at(-1)!.data as { product: { media: { id: string; position: number; alt: string | null }[] } };
    expect(last.product.media.map((m) => [m.id, m.position])).toEqual([
      [ids[3], 0],
      [ids[2], 1],
      [ids[0], 2],
    ]);
    expect(last.product.media[0]!.alt).toBe('Front');
    expect(mine.length).toBe(4 + 3);

    expectError(await api(`/api/products/${p.id}/media/${ids[0]}`, { method: 'PATCH', key, json: { position: -1 } }), 422, 'VALIDATION_ERROR');
    expectError(await api(`/api/products/${p.id}/media/${ids[0]}`, { method: 'PATCH', key, json: { url: 'x' } }), 422, 'VALIDATION_ERROR');
    expectError(await api(`/api/products/${p.id}/media/med_nope`, { method: 'PATCH', key, json: { alt: 'x' } }), 404, 'NOT_FOUND');
  });

  it("keeps a vendor user to its own products' images, and refuses customers and anonymous uploads", async () => {
    const mine = await insertVendorUser();
    const other = await insertVendorUser();
    const own = await createProduct(key, { vendorId: mine.vendor.id });
    const theirs = await createProduct(key, { vendorId: other.vendor.id });
    expect((await upload(own.id, imageFiles['image/png'](), 'image/png', '', mine.token)).status).toBe(201);
    expectError(await upload(theirs.id, imageFiles['image/png'](), 'image/png', '', mine.token), 404, 'NOT_FOUND');
    const theirImage = (await upload(theirs.id, imageFiles['image/png'](), 'image/png')).body.data;
    expectError(await api(`/api/products/${theirs.id}/media/${theirImage.id}`, { method: 'DELETE', key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${theirs.id}/media/${theirImage.id}`, { method: 'PATCH', key: mine.token, json: { alt: 'mine now' } }), 404, 'NOT_FOUND');

    const customer = await insertUser();
    expectError(await upload(own.id, imageFiles['image/png'](), 'image/png', '', customer.token), 403, 'AUTHORIZATION_ERROR');
    const anonymous = await api(`/api/products/${own.id}/media`, { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: imageFiles['image/png']() });
    expectError(anonymous, 401, 'AUTHENTICATION_ERROR');
  });

  it("hides a draft's images from the public, and clears the variant of an image whose variant is deleted", async () => {
    const draft = await createProduct(key, { status: 'draft', variants: [{ options: { size: 'S' } }, { options: { size: 'M' } }] });
    const image = (await upload(draft.id, imageFiles['image/png'](), 'image/png', `?variantId=${draft.variants[1].id}`)).body.data;
    expectError(await api(`/api/products/${draft.id}/media`), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${draft.id}/media/${image.id}`), 404, 'NOT_FOUND');
    await api(`/api/products/${draft.id}/variants/${draft.variants[1].id}`, { method: 'DELETE', key });
    const got = await api(`/api/products/${draft.id}/media/${image.id}`, { key });
    expect(got.body.data.variantId).toBeNull();
  });

  it('answers conditional and range requests for a file, and 404 for an unknown key', async () => {
    const p = await createProduct(key);
    const bytes = imageFiles['image/png']();
    const media = (await upload(p.id, bytes, 'image/png')).body.data;
    const url = path(media.url);
    const full = await fetchFile(url);
    const etag = full.headers.get('ETag')!;
    await full.arrayBuffer();

    const notModified = await fetchFile(url, { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('ETag')).toBe(etag);
    expect((await fetchFile(url, { 'If-Match': '"other"' })).status).toBe(412);

    const part = await fetchFile(url, { Range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('Content-Range')).toBe(`bytes 0-9/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(0, 10));
    const suffix = await fetchFile(url, { Range: 'bytes=-5' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('Content-Range')).toBe(`bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`);
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 5));
    const past = await fetchFile(url, { Range: `bytes=${bytes.length + 10}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('Content-Range')).toBe(`bytes */${bytes.length}`);
    const exactlyAtEnd = await fetchFile(url, { Range: `bytes=${bytes.length}-${bytes.length + 5}` });
    expect(exactlyAtEnd.status).toBe(416);
    const empty = await fetchFile(url, { Range: 'bytes=-0' });
    expect(empty.status).toBe(416);

    const head = await exportsFetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Length')).toBe(String(bytes.length));
    expectError(await api(`/media/${'0'.repeat(64)}.png`), 404, 'NOT_FOUND');
    expectError(await api('/media/..%2F..%2Fsecret'), 404, 'NOT_FOUND');
  });

  it('deletes, in the hourly cron, the file of an upload whose write never landed, once its claim is over', async () => {
    const bytes = imageFiles['image/gif']();
    const orphan = `${await sha256Hex(bytes)}.gif`;
    await env.MEDIA.put(orphan, bytes);
    const hourAgo = new Date(Date.now() - 3600_000 - 1000).toISOString();
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const claimed = `${'a'.repeat(64)}.gif`;
    await env.MEDIA.put(claimed, bytes);
    await db()
      .insert(mediaUnused)
      .values([
        { key: orphan, deletableAfter: hourAgo },
        { key: claimed, deletableAfter: soon },
      ]);
    const result = await runScheduled(env, HOURLY_CRON);
    expect(result).toMatchObject({ mediaFilesDeleted: 1 });
    expect(await env.MEDIA.head(orphan)).toBeNull();
    expect(await env.MEDIA.head(claimed)).not.toBeNull();
  });
});

function exportsFetch(path: string, init: RequestInit = {}) {
  return workerFetch(new Request(`http://store.test${path}`, init));
}
function fetchFile(path: string, headers: Record<string, string> = {}) {
  return exportsFetch(path, { headers });
}
