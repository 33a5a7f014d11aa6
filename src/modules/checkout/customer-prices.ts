import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { compiled, type Slot } from '../../db/compiled';
import { inJson } from '../../db/json-rows';
import { currencies, customerGroupMembers, priceListPrices, priceLists } from '../../db/schema';

/**
 * What a signed-in customer pays by price lists (docs/price-lists.md). The prices of the active lists
 * for the customer (its groups' and those for every customer) are read for the variants at hand, with
 * their list's currency and window; which one applies is decided when used, so rows read once stay
 * right as the clock moves (carts and orders keep them per quote_version, src/modules/checkout/quote-inputs.ts).
 */
export interface CustomerPrice {
  variantId: string;
  currency: string;
  minQuantity: number;
  /** Minor units of `currency`, of which it has `minorUnits` digits. */
  amount: number;
  minorUnits: number;
  startsAt: string | null;
  endsAt: string | null;
}

/** The prices of active lists that are for `customerId` (its groups, or every customer), of the variants in `ids` (a JSON array). */
export const customerPricesRead = compiled((db, p: Slot<'customerId' | 'ids'>) =>
  db
    .select({
      variantId: priceListPrices.variantId,
      currency: priceLists.currency,
      minQuantity: priceListPrices.minQuantity,
      amount: priceListPrices.amount,
      minorUnits: currencies.minorUnits,
      startsAt: priceLists.startsAt,
      endsAt: priceLists.endsAt,
    })
    .from(priceListPrices)
    .innerJoin(priceLists, eq(priceLists.id, priceListPrices.priceListId))
    .innerJoin(currencies, eq(currencies.code, priceLists.currency))
    .where(
      and(
        inJson(priceListPrices.variantId, p('ids')),
        eq(priceLists.status, 'active'),
        or(
          isNull(priceLists.customerGroupId),
          sql`${priceLists.customerGroupId} IN (SELECT ${customerGroupMembers.groupId} FROM ${customerGroupMembers} WHERE ${customerGroupMembers.customerId} = ${p('customerId')})`,
        ),
      ),
    ),
);

/**
 * The lowest price-list price of a variant in `currency` for a line of `quantity` units at `now`,
 * or undefined when no list prices it. Callers compare it with the public price: a list never raises one.
 */
export function listedUnitPrice(prices: readonly CustomerPrice[], variantId: string, currency: string, quantity: number, now: Date): number | undefined {
  const at = now.toISOString();
  let lowest: number | undefined;
  for (const p of prices) {
    if (p.variantId !== variantId || p.currency !== currency || p.minQuantity > quantity) continue;
    if ((p.startsAt !== null && p.startsAt > at) || (p.endsAt !== null && p.endsAt <= at)) continue;
    if (lowest === undefined || p.amount < lowest) lowest = p.amount;
  }
  return lowest;
}

/** The customer a quote's `customerKey` names (`email:<address>` names a guest), or null. */
export const customerIdOfKey = (customerKey: string | null | undefined): string | null => (customerKey && !customerKey.startsWith('email:') ? customerKey : null);

/** The own unit price a line is priced at (pricing.ts `ownUnitPrice`): the listed price when below the public one (`own`, else `converted`), else `own`. */
export function ownOrListed(own: number | undefined, converted: number, listed: number | undefined): number | undefined {
  return listed !== undefined && listed < (own ?? converted) ? listed : own;
}
