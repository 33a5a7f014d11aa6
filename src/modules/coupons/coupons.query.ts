import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { COUPON_TYPES, promotions } from '../../db/schema';
import { booleanFilter, defineListQuery, enumFilter, fieldTreeFromSchema, type FilterSpec, searchFilter } from '../../lib/query';
import { COUPON_STATUS_DESCRIPTION, COUPON_STATUSES, type CouponStatus, couponStatusSql } from './coupon-status';
import { CouponSchema } from './coupons.schemas';

const statusFilter: FilterSpec<CouponStatus | undefined> = {
  schema: z
    .enum(COUPON_STATUSES)
    .optional()
    .openapi({ description: `Status now: ${COUPON_STATUS_DESCRIPTION}` }) as z.ZodType<CouponStatus | undefined, string | undefined>,
  where: (status) => sql`${couponStatusSql(new Date().toISOString())} = ${status}`,
};

export const couponListQuery = defineListQuery({
  resource: 'coupon',
  id: promotions.id,
  // The rows of `promotions` that are coupons (is_coupon): the service adds that condition to every read.
  sortable: { createdAt: promotions.createdAt, code: promotions.code, endsAt: promotions.endsAt, id: promotions.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(CouponSchema),
  filters: {
    q: searchFilter([promotions.code, promotions.description], 'Search in code and description, case-insensitive.'),
    active: booleanFilter(promotions.active, 'Switched on or off (see `status` for whether it applies now).'),
    type: enumFilter(promotions.type, COUPON_TYPES, 'Coupon type.'),
    status: statusFilter,
  },
});
