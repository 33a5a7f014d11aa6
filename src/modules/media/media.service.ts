import { and, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { productMedia, products } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { getProduct, type Visibility, writable, ensureStored, releaseFiles, sha256Hex, storeObject } from '../products';
import type { Product } from '../products/schemas';
import { MAX_MEDIA_PER_PRODUCT, type Media } from '../products/schemas';
import type { UpdateMediaInput } from './media.schemas';
import type { Upload } from './media.upload';

/**
 * A product's images. Each change is a change of the product: it emits `product.updated` with the
 * product as it now is, in the batch that writes it. Positions run 0..n-1: an image put at a place
 * moves the others along, in SQL, so concurrent changes keep them whole.
 */

export interface MediaStore {
  bucket: R2Bucket;
  /** What URLs start with: MEDIA_BASE_URL, or the request's origin + /media. */
  baseUrl: string;
}

function findMedia(product: Product, mediaId: string): Media {
  const media = product.media.find((m) => m.id === mediaId);
  if (!media) throw ApiError.notFound('Media', mediaId);
  return media;
}

function checkVariant(product: Product, variantId: string | null | undefined) {
  if (variantId && !product.variants.some((v) => v.id === variantId)) {
    throw ApiError.validation([{ field: 'variantId', problem: `no variant '${variantId}' on product '${product.id}'`, code: 'not_found' }]);
  }
}

/** `list` with `item` moved to `to` (clamped to the list), positions renumbered from 0. */
function placed(list: Media[], item: Media, to: number | undefined, ts: string): Media[] {
  const others = list.filter((m) => m.id !== item.id);
  const at = Math.min(to ?? others.length, others.length);
  const order = [...others.slice(0, at), item, ...others.slice(at)];
  return order.map((m, position) => (m.position === position && m.id !== item.id ? m : { ...m, position, updatedAt: ts }));
}

const touch = (db: Database, productId: string, ts: string) => db.update(products).set({ updatedAt: ts }).where(eq(products.id, productId));

export async function listMedia(db: Database, productId: string, visibility: Visibility): Promise<Media[]> {
  return (await getProduct(db, productId, visibility)).media;
}

export async function getMedia(db: Database, productId: string, mediaId: string, visibility: Visibility): Promise<Media> {
  return findMedia(await getProduct(db, productId, visibility), mediaId);
}

export async function addMedia(db: Database, store: MediaStore, productId: string, upload: Upload, vendorId: string | null = null, now = new Date()): Promise<Media> {
  const current = await getProduct(db, productId, writable(vendorId));
  const { input } = upload;
  checkVariant(current, input.variantId);
  if (current.media.length >= MAX_MEDIA_PER_PRODUCT) throw ApiError.conflict(`A product has at most ${MAX_MEDIA_PER_PRODUCT} images; delete one first`);

  const sha256 = await sha256Hex(upload.bytes);
  const key = `${sha256}.${upload.extension}`;
  await storeObject(db, store.bucket, key, upload.bytes, upload.type, sha256, now);

  const ts = now.toISOString();
  const media: Media = {
    id: newId(ID_PREFIX.media, now.getTime()),
    key,
    url: `${store.baseUrl}/${key}`,
    contentType: upload.type,
    byteSize: upload.bytes.length,
    width: upload.width,
    height: upload.height,
    alt: input.alt ?? null,
    position: 0,
    variantId: input.variantId ?? null,
    createdAt: ts,
    updatedAt: ts,
  };
  const list = placed(current.media, media, input.position, ts);
  const added = list.find((m) => m.id === media.id)!;
  const product: Product = { ...current, media: list, updatedAt: ts };
  // The place is taken in SQL from the count at write time, so two uploads at once still get distinct places.
  const count = sql<number>`(SELECT count(*) FROM ${productMedia} WHERE ${productMedia.productId} = ${current.id})`;
  const position = input.position === undefined ? count : sql<number>`min(${input.position}, ${count})`;
  await db.batch([
    db
      .update(productMedia)
      .set({ position: sql`${productMedia.position} + 1`, updatedAt: ts })
      .where(and(eq(productMedia.productId, current.id), gte(productMedia.position, input.position ?? MAX_MEDIA_PER_PRODUCT))),
    db.insert(productMedia).values({ ...media, productId: current.id, position }),
    touch(db, current.id, ts),
    outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
  ]);
  await ensureStored(store.bucket, key, upload.bytes, upload.type, sha256);
  return added;
}

export async function updateMedia(db: Database, productId: string, mediaId: string, patch: UpdateMediaInput, vendorId: string | null = null, now = new Date()): Promise<Media> {
  const current = await getProduct(db, productId, writable(vendorId));
  const before = findMedia(current, mediaId);
  checkVariant(current, patch.variantId);
  if (Object.keys(patch).length === 0) return before;
  const ts = now.toISOString();
  const { position: to, ...fields } = patch;
  const edited: Media = { ...before, ...fields, updatedAt: ts };
  const list = to === undefined ? current.media.map((m) => (m.id === mediaId ? edited : m)) : placed(current.media, edited, to, ts);
  const updated = list.find((m) => m.id === mediaId)!;
  const product: Product = { ...current, media: list, updatedAt: ts };

  const scope = eq(productMedia.productId, current.id);
  const self = sql`(SELECT ${productMedia.position} FROM ${productMedia} WHERE ${productMedia.id} = ${mediaId})`;
  const last = sql`(SELECT count(*) - 1 FROM ${productMedia} WHERE ${productMedia.productId} = ${current.id})`;
  const target = to === undefined ? undefined : sql<number>`min(${to}, ${last})`;
  await db.batch([
    touch(db, current.id, ts),
    ...(target === undefined
      ? []
      : [
          // Those between the old place and the new one shift by one towards the old place.
          db
            .update(productMedia)
            .set({ position: sql`${productMedia.position} + 1`, updatedAt: ts })
            .where(and(scope, gte(productMedia.position, target), lt(productMedia.position, self))),
          db
            .update(productMedia)
            .set({ position: sql`${productMedia.position} - 1`, updatedAt: ts })
            .where(and(scope, gt(productMedia.position, self), lte(productMedia.position, target))),
        ]),
    db
      .update(productMedia)
      .set({ ...fields, ...(target === undefined ? {} : { position: target }), updatedAt: ts })
      .where(and(scope, eq(productMedia.id, mediaId))),
    outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
  ]);
  return updated;
}

export async function deleteMedia(db: Database, bucket: R2Bucket, productId: string, mediaId: string, vendorId: string | null = null, now = new Date()): Promise<void> {
  const current = await getProduct(db, productId, writable(vendorId));
  const gone = findMedia(current, mediaId);
  const ts = now.toISOString();
  const list = current.media.filter((m) => m.id !== mediaId).map((m, position) => (m.position === position ? m : { ...m, position, updatedAt: ts }));
  const product: Product = { ...current, media: list, updatedAt: ts };
  const scope = eq(productMedia.productId, current.id);
  const self = sql`(SELECT ${productMedia.position} FROM ${productMedia} WHERE ${productMedia.id} = ${mediaId})`;
  await db.batch([
    db
      .update(productMedia)
      .set({ position: sql`${productMedia.position} - 1`, updatedAt: ts })
      .where(and(scope, gt(productMedia.position, self))),
    db.delete(productMedia).where(and(scope, eq(productMedia.id, mediaId))),
    touch(db, current.id, ts),
    outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
  ]);
  await releaseFiles(db, bucket, [gone.key]);
}
