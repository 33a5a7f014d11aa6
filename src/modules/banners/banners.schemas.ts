import { z } from '@hono/zod-openapi';
import { banners } from '../../db/schema';
import { isSafeUrl } from '../../lib/safe-url';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Instant, Timestamp } from '../../lib/schemas';
import { BANNER_STATUS_DESCRIPTION, BANNER_STATUSES } from './banner-status';

export const BannerSchema = createSelectSchema(banners, {
  startsAt: Timestamp.nullable(),
  endsAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .extend({ status: z.enum(BANNER_STATUSES).openapi({ description: BANNER_STATUS_DESCRIPTION }) })
  .openapi('Banner', { description: 'A storefront promotion shown in a placement while it is live.' });
export type Banner = z.infer<typeof BannerSchema>;

const fields = {
  title: z.string().trim().min(1).max(200),
  imageUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .openapi({ example: 'https://cdn.example.com/winter-sale.jpg' }),
  linkUrl: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .refine(isSafeUrl, 'must be an http(s) URL or a path')
    .nullable()
    .openapi({ example: '/categories/winter', description: 'Where the banner leads: an http(s) URL or a storefront path.' }),
  altText: z.string().trim().max(300).nullable(),
  placement: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single hyphens')
    .max(50)
    .openapi({ example: 'home-hero', description: 'Where the storefront shows it (`home-hero`, `sidebar`, ...).' }),
  position: z.int().min(0).max(10_000).openapi({ description: 'Order within the placement, lowest first.' }),
  startsAt: Instant.nullable(),
  endsAt: Instant.nullable().openapi({ description: 'Must be after `startsAt`.' }),
  active: z.boolean(),
};
const serverColumns = { id: true, createdAt: true, updatedAt: true } as const;

export const CreateBannerBody = createInsertSchema(banners, fields)
  .omit(serverColumns)
  .partial()
  .required({ title: true, imageUrl: true, placement: true })
  .strict()
  .openapi('CreateBanner');
export const UpdateBannerBody = createUpdateSchema(banners, fields).omit(serverColumns).partial().strict().openapi('UpdateBanner');
export type CreateBannerInput = z.infer<typeof CreateBannerBody>;
export type UpdateBannerInput = z.infer<typeof UpdateBannerBody>;
