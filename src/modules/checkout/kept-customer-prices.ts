import { LruCache } from '../../lib/lru';
import type { CustomerPrice } from './customer-prices';

/** Customers whose price-list prices an isolate keeps at once; past it the least recently used go. */
const MAX_CUSTOMERS = 5_000;

/**
 * Price-list prices read for customers' quotes, by customer and variant (an empty list: read, and
 * none), all of one quote_version: quote-inputs.ts keeps one of these beside the other inputs and
 * drops it with them when the version moves (a list, its prices or a membership changed).
 */
export class KeptCustomerPrices {
  private readonly byCustomer = new LruCache<Map<string, CustomerPrice[]>>({ maxEntries: MAX_CUSTOMERS, maxBytes: Number.MAX_SAFE_INTEGER });

  /** The prices of `variantIds` for the customer if every variant's are kept, else undefined (read them). */
  get(customerId: string, variantIds: Iterable<string>): CustomerPrice[] | undefined {
    const kept = this.byCustomer.get(customerId);
    if (!kept) return undefined;
    const prices: CustomerPrice[] = [];
    for (const id of variantIds) {
      const rows = kept.get(id);
      if (!rows) return undefined;
      prices.push(...rows);
    }
    return prices;
  }

  /** Keeps what a read of `variantIds` found for the customer (variants without a row: none). */
  keep(customerId: string, variantIds: Iterable<string>, prices: readonly CustomerPrice[]): void {
    const kept = this.byCustomer.get(customerId) ?? new Map<string, CustomerPrice[]>();
    for (const id of variantIds) kept.set(id, []);
    for (const price of prices) kept.get(price.variantId)?.push(price);
    this.byCustomer.set(customerId, kept, 1);
  }
}
