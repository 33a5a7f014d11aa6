import { and, eq, inArray, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { mediaUnused, productMedia } from '../../db/schema';

/**
 * The R2 side of product media (its endpoints are src/modules/media/; a product's deletion releases its files here). An object is stored once per SHA-256 and deleted once no image uses
 * it, through media_unused (migrations/0033_product_media.sql): the last image's deletion records its
 * key, and an upload records its key an hour ahead before storing the file, so a failed write still
 * leaves a record and nothing deletes the file of an upload under way.
 */

/** Served for a year and never revalidated: a key names exactly one content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** What an upload's claim holds its file for when its write never lands. */
const CLAIM_MS = 60 * 60 * 1000;

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Stores the file under `key`, recording it as unused (for an hour) until its image row lands. */
export async function storeObject(db: Database, bucket: R2Bucket, key: string, bytes: Uint8Array, contentType: string, sha256: string, now: Date) {
  const claimEnds = new Date(now.getTime() + CLAIM_MS).toISOString();
  await db
    .insert(mediaUnused)
    .values({ key, deletableAfter: claimEnds })
    .onConflictDoUpdate({ target: mediaUnused.key, set: { deletableAfter: sql`max(${mediaUnused.deletableAfter}, excluded.deletable_after)` } });
  // Written even when the object exists: the same bytes, and a deletion that raced this upload is undone.
  await bucket.put(key, bytes, { httpMetadata: { contentType, cacheControl: IMMUTABLE }, sha256 });
}

/**
 * After the image row landed: a deletion of the same key's last other image may have removed the
 * object between the put and the row (its record came before this upload's claim); put it back.
 */
export async function ensureStored(bucket: R2Bucket, key: string, bytes: Uint8Array, contentType: string, sha256: string) {
  if (!(await bucket.head(key))) await bucket.put(key, bytes, { httpMetadata: { contentType, cacheControl: IMMUTABLE }, sha256 });
}

/**
 * Deletes the objects of recorded keys whose time has come and that no image uses (of `keys` only,
 * or of all), then their records: an R2 failure leaves the records for the hourly cron to retry, and
 * a claim an upload made meanwhile keeps its record (the upload puts its file back, ensureStored).
 */
export async function deleteUnusedObjects(db: Database, bucket: R2Bucket, keys?: readonly string[], now = new Date()): Promise<string[]> {
  if (keys && !keys.length) return [];
  const due = lte(mediaUnused.deletableAfter, now.toISOString());
  const rows = await db
    .select({ key: mediaUnused.key })
    .from(mediaUnused)
    .where(
      and(
        keys ? inArray(mediaUnused.key, [...new Set(keys)]) : undefined,
        due,
        notExists(db.select({ one: sql`1` }).from(productMedia).where(eq(productMedia.key, mediaUnused.key))),
      ),
    )
    .limit(1000);
  const gone = rows.map((r) => r.key);
  if (!gone.length) return [];
  await bucket.delete(gone); // up to 1000 keys per call
  for (let i = 0; i < gone.length; i += 90) {
    await db.delete(mediaUnused).where(and(inArray(mediaUnused.key, gone.slice(i, i + 90)), due));
  }
  return gone;
}

/**
 * Deletes the stored files of `keys` that no image (of any product) uses any more, which a trigger
 * recorded. The images are already gone: a failure here leaves the records to the hourly cron.
 */
export async function releaseFiles(db: Database, bucket: R2Bucket, keys: string[]) {
  try {
    await deleteUnusedObjects(db, bucket, keys);
  } catch (error) {
    console.warn(`media: deleting unused files failed, left to the hourly cron: ${(error as Error).message}`);
  }
}
