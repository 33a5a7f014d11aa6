import { crudRoutes } from '../../lib/crud-routes';
import { couponListQuery } from './coupons.query';
import { CouponSchema, CreateCouponBody, UpdateCouponBody } from './coupons.schemas';

const rules =
  "`value` is a percent for `percentage` and an amount in major units of the store's default currency for `fixed` (as is `minSubtotal`). " +
  "A `fixed` coupon's `currencyAmounts` are its own amounts in other currencies of the store, used for carts in them instead of converting " +
  '(422 for a percentage coupon, the default currency, a currency the store lacks, a repeated currency, or more decimals than the currency has). ' +
  '`endsAt` must be after `startsAt`; `productIds` and `categoryIds` must exist (422 naming the missing ids). A duplicate code, in any case, is 409.';

export const couponRoutes = crudRoutes({
  path: '/coupons',
  tag: 'Coupons',
  sdk: { group: 'coupons', singular: 'Coupon', plural: 'Coupons' },
  noun: 'coupon',
  nouns: 'coupons',
  schema: CouponSchema,
  createBody: CreateCouponBody,
  updateBody: UpdateCouponBody,
  listQuery: couponListQuery,
  resource: 'coupons',
  reads: 'permission',
  slug: { field: 'code' },
  notes: {
    list: 'Newest first by default. `status` is computed at request time.',
    get: 'The code in any case.',
    create: rules,
    update: `By id or code. ${rules} Changing \`type\` needs a new \`value\`; \`usageLimit\` cannot go below \`timesUsed\` (422). Orders already placed keep their discount.`,
    delete: 'By id or code. A coupon that has been used is refused with 409: deactivate it (`active: false`) instead.',
  },
});
