import type { PostalAddress, ShippingMethodRow, ShippingZoneRow } from '../../db/schema';
import type { FieldProblem } from '../../lib/errors';
import { methodPriceIn, type RatedCart } from './shipping-rates';
import { zoneFor } from './shipping-zones';

/**
 * The shipping of a cart or order (docs/api.md, Shipping): the active methods of the zone that serves
 * its address, each priced for it, and the one it ships by: the chosen one, else the cheapest. Pure.
 *
 * A store without any zone charges no shipping and refuses no address. Otherwise an address no zone
 * serves (or whose zone has no method that serves this cart) has no options: an order is refused
 * for it, a cart shows shipping 0 and no method. Without an address, the rest-of-world zone prices
 * the cart (an estimate until the address is known).
 */

export interface ShippingOption {
  method: ShippingMethodRow;
  /** Minor units of the cart's currency. */
  price: number;
}

export interface Shipping {
  /** The active methods that serve the cart, by position, each with its price. */
  options: ShippingOption[];
  /** What the cart ships by: the chosen option, else the cheapest; null with no zones or no option. */
  chosen: ShippingOption | null;
  /** Why this cannot be ordered as it is: no option for the address, or a chosen method that does not serve it. */
  problem: FieldProblem | null;
}

export interface ShippingInputs {
  zones: ShippingZoneRow[];
  methods: ShippingMethodRow[];
}

const byPosition = (a: ShippingMethodRow, b: ShippingMethodRow) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export function shippingFor(
  inputs: ShippingInputs,
  address: Pick<PostalAddress, 'country' | 'region' | 'postalCode'> | null | undefined,
  /** With the cart's currency: a method's own rate for it is used instead of converting. */
  cart: RatedCart & { currency: string },
  convert: (defaultMinor: number) => number,
  chosenId?: string | null,
): Shipping {
  if (inputs.zones.length === 0) return { options: [], chosen: null, problem: null };
  const zone = zoneFor(inputs.zones, address);
  const options = zone
    ? inputs.methods
        .filter((m) => m.zoneId === zone.id && m.active)
        .sort(byPosition)
        .flatMap((method) => {
          const price = methodPriceIn(method, cart.currency, cart, convert);
          return price === null ? [] : [{ method, price }];
        })
    : [];
  const cheapest = options.reduce<ShippingOption | null>((best, o) => (best === null || o.price < best.price ? o : best), null);
  if (chosenId) {
    const chosen = options.find((o) => o.method.id === chosenId);
    if (chosen) return { options, chosen, problem: null };
    const problem = { field: 'shippingMethodId', problem: `'${chosenId}' does not ship this cart to this address (any more): choose one of GET /api/carts/{id}/shipping-options` };
    return { options, chosen: cheapest, problem };
  }
  if (cheapest) return { options, chosen: cheapest, problem: null };
  const where = address ? `${address.country.toUpperCase()}${address.postalCode ? ` ${address.postalCode}` : ''}` : 'an address not given yet';
  return { options, chosen: null, problem: { field: 'shippingAddress', problem: `the store does not ship this cart to ${where}` } };
}
