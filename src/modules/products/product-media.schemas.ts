import { z } from '@hono/zod-openapi';
import { productMedia } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

/** A product's images on the wire, derived from the product_media table: part of every product (src/modules/media/ changes them). */

/** At most this many images per product. */
export const MAX_MEDIA_PER_PRODUCT = 50;

export const MediaSchema = createSelectSchema(productMedia, {
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({ productId: true })
  .extend({
    key: z.string().openapi({ description: 'The stored file: the SHA-256 of its bytes and its extension. The same file uploaded twice (to any product) is one object.' }),
    url: z.string().openapi({
      description: 'Where the file is served (`GET /media/{key}`), cacheable for a year: it never changes.',
      example: 'https://store.example.com/media/9f86d0...0f00a08.jpg',
    }),
    byteSize: z.int().openapi({ description: 'Size of the file in bytes.' }),
    width: z.int().nullable().openapi({ description: 'Width in pixels, read from the file (null when its header does not say).' }),
    height: z.int().nullable().openapi({ description: 'Height in pixels, read from the file.' }),
  })
  .openapi('ProductMedia');

export type Media = z.infer<typeof MediaSchema>;
