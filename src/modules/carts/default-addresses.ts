import { and, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type AddressRow, addresses, type CartRow, type PostalAddress } from '../../db/schema';

/**
 * A customer's cart without a shipping (or billing) address of its own uses the customer's default
 * one: every read shows it and prices its tax, and checkout ships to it. It is looked up at each use,
 * not copied into the cart, so a default changed before checkout is the one used; an address set on
 * the cart (or in the checkout body) always wins.
 */

/** The customer's default shipping and billing addresses (none for a guest cart), as a query to batch. */
export function defaultAddressesOf(db: Database, customerId: string | null) {
  return db
    .select()
    .from(addresses)
    .where(and(eq(addresses.userId, customerId ?? ''), or(eq(addresses.isDefaultShipping, true), eq(addresses.isDefaultBilling, true))));
}

function postalAddress(row: AddressRow): PostalAddress {
  const { firstName, lastName, company, line1, line2, city, region, postalCode, country, phone } = row;
  return { firstName, lastName, company, line1, line2, city, region, postalCode, country, phone };
}

/** The cart with the defaults in the addresses it lacks; a converted cart stays as it was checked out. */
export function withDefaultAddresses(cart: CartRow, defaults: AddressRow[]): CartRow {
  if (cart.status !== 'active' || cart.customerId === null) return cart;
  const shipping = defaults.find((a) => a.isDefaultShipping);
  const billing = defaults.find((a) => a.isDefaultBilling);
  return {
    ...cart,
    shippingAddress: cart.shippingAddress ?? (shipping ? postalAddress(shipping) : null),
    billingAddress: cart.billingAddress ?? (billing ? postalAddress(billing) : null),
  };
}
