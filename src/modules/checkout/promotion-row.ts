import type { PromotionRow } from '../../db/schema';
import type { Promotion } from './promotion-types';

/** A stored promotion as the engine applies it, with how often this customer already used it. */
export function promotionOfRow(row: PromotionRow, usesByCustomer: number): Promotion {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    type: row.type,
    value: row.value,
    currencyAmounts: row.currencyAmounts,
    target: row.target,
    buyXGetY: row.buyXGetY,
    freeShipping: row.freeShipping,
    conditions: {
      minSubtotal: row.minSubtotal,
      minQuantity: row.minQuantity,
      include: row.include,
      exclude: row.exclude,
      customerGroupIds: row.customerGroupIds,
      currencies: row.currencies,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      timesUsed: row.timesUsed,
      usageLimit: row.usageLimit,
      usesByCustomer,
      perCustomerLimit: row.perCustomerLimit,
    },
    priority: row.priority,
    combinesWithPromotions: row.combinesWithPromotions,
    combinesWithCodes: row.combinesWithCodes,
  };
}
