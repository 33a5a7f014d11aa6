import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { priceListPrices, priceLists, productVariants, products, promotions, shippingMethods } from '../../db/schema';

/**
 * The columns that keep a shop's own amounts per currency, each a JSON object by currency code in
 * minor units of that currency (products' and variants' `prices`, promotions' (coupons') `currency_amounts`,
 * shipping methods' `currency_rates`). A currency's minor units cannot change under them, and a
 * deleted currency takes its entries with it.
 */
const OWN_AMOUNTS = [
  { table: products, column: products.prices, key: 'prices' },
  { table: productVariants, column: productVariants.prices, key: 'prices' },
  { table: promotions, column: promotions.currencyAmounts, key: 'currencyAmounts' },
  { table: shippingMethods, column: shippingMethods.currencyRates, key: 'currencyRates' },
] as const;

const pathOf = (code: string) => `$."${code}"`;

/** True (SQL) when no row keeps an own amount in `code`. */
export function noOwnAmountsIn(code: string): SQL {
  const none = OWN_AMOUNTS.map(({ table, column }) => sql`NOT EXISTS (SELECT 1 FROM ${table} WHERE json_type(${column}, ${pathOf(code)}) IS NOT NULL)`);
  // Price lists keep theirs in rows (a deleted currency takes its lists by foreign key).
  const noListPrices = sql`NOT EXISTS (SELECT 1 FROM ${priceListPrices} JOIN ${priceLists} ON ${priceLists.id} = ${priceListPrices.priceListId} WHERE ${priceLists.currency} = ${code})`;
  return sql.join([...none, noListPrices], sql` AND `);
}

/** Statements that drop every own amount in `code`, once no currency of that code exists (for the batch that deletes it). */
export function dropOwnAmountsOfDeleted(db: Database, code: string) {
  return OWN_AMOUNTS.map(({ table, column, key }) =>
    db
      .update(table)
      .set({ [key]: sql`json_remove(${column}, ${pathOf(code)})` } as never)
      .where(sql`json_type(${column}, ${pathOf(code)}) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM currencies WHERE code = ${code})`),
  );
}
