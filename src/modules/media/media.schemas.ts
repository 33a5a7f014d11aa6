import { z } from '@hono/zod-openapi';
import { MAX_MEDIA_PER_PRODUCT } from '../products/schemas';

/** Shapes of the media endpoints' input; an image as products show it is src/modules/products/product-media.schemas.ts. */

const Alt = z.string().trim().max(500).nullable().openapi({ description: 'Text alternative for screen readers and search engines.', example: 'The blue T-shirt, front' });
const Position = z
  .int()
  .min(0)
  .max(MAX_MEDIA_PER_PRODUCT - 1)
  .openapi({
    description: "Place in the product's images, from 0. The others move up or down to make room; a position past the end means last.",
  });
const VariantId = z.string().min(1).max(100).nullable().openapi({ description: 'The variant this image shows (a variant of the same product), or null.' });

/** Upload settings, as query parameters (a raw-body upload has nowhere else for them) or multipart fields. */
export const UploadMediaQuery = z.object({
  alt: Alt.unwrap().optional(),
  position: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_MEDIA_PER_PRODUCT - 1)
    .optional()
    .openapi({ description: 'Place among the images, from 0 (last when left out).' }),
  variantId: VariantId.unwrap().optional(),
});
export type UploadMediaInput = { alt?: string | null; position?: number; variantId?: string | null };

export const UpdateMediaBody = z
  .strictObject({ alt: Alt.optional(), position: Position.optional(), variantId: VariantId.optional() })
  .openapi('UpdateProductMedia', { description: "Fields to change: alt text, the place among the product's images, the variant shown." });
export type UpdateMediaInput = z.infer<typeof UpdateMediaBody>;

export const MediaParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'prod_01JD0000000000000000000000' }),
  mediaId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'mediaId', in: 'path' }, example: 'med_01JD0000000000000000000000' }),
});
