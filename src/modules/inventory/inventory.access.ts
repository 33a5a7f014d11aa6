import { eq, type SQL } from 'drizzle-orm';
import { products } from '../../db/schema';
import { type Principal, vendorScope } from '../../lib/access';

/** A vendor user reaches its vendor's products' variants only (others are 404); everyone else all. */
export const inventoryReach = (principal: Principal): SQL | undefined => {
  const vendorId = vendorScope(principal);
  return vendorId ? eq(products.vendorId, vendorId) : undefined;
};
