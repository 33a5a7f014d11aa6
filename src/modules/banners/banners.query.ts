import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { banners } from '../../db/schema';
import { booleanFilter, defineListQuery, exactFilter, fieldTreeFromSchema, type FilterSpec, searchFilter } from '../../lib/query';
import { BANNER_STATUS_DESCRIPTION, BANNER_STATUSES, type BannerStatus, bannerStatusSql } from './banner-status';
import { BannerSchema } from './banners.schemas';

const statusFilter: FilterSpec<BannerStatus | undefined> = {
  schema: z
    .enum(BANNER_STATUSES)
    .optional()
    .openapi({ description: `Status now (public readers only ever see \`live\`): ${BANNER_STATUS_DESCRIPTION}` }) as z.ZodType<BannerStatus | undefined, string | undefined>,
  where: (status) => sql`${bannerStatusSql(new Date().toISOString())} = ${status}`,
};

export const bannerListQuery = defineListQuery({
  resource: 'banner',
  id: banners.id,
  sortable: {
    placement: banners.placement,
    position: banners.position,
    startsAt: banners.startsAt,
    endsAt: banners.endsAt,
    title: banners.title,
    createdAt: banners.createdAt,
    id: banners.id,
  },
  defaultSort: [
    { field: 'placement', direction: 'asc' },
    { field: 'position', direction: 'asc' },
  ],
  selectable: fieldTreeFromSchema(BannerSchema),
  filters: {
    placement: exactFilter(banners.placement, 'Only this placement.'),
    q: searchFilter([banners.title], 'Search in the title, case-insensitive.'),
    active: booleanFilter(banners.active, 'Switched on or off (see `status` for whether it shows now).'),
    status: statusFilter,
  },
});
