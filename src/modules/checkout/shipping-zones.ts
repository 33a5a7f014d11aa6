import type { PostalAddress, ShippingZoneRow } from '../../db/schema';

/**
 * Which zone serves an address (docs/api.md, Shipping). A zone matches an address when its country is
 * one of the zone's `countries` or its `COUNTRY-REGION` one of its `regions`, and, when the zone lists
 * `postcodes`, its postal code matches one of them. The most specific match wins: a zone matched
 * through a postcode, then one matched by region, then by country; the rest-of-world zone serves
 * every address no other zone matches, and, before the address is known, the cart. Among zones
 * equally specific, the oldest (by creation) wins. Pure.
 */

export type ZoneForMatching = Pick<ShippingZoneRow, 'id' | 'countries' | 'regions' | 'postcodes' | 'restOfWorld' | 'createdAt'>;

/** How specifically a zone matches: higher wins; 0 for the rest of the world. */
enum Specificity {
  RestOfWorld = 0,
  Country = 1,
  Region = 2,
  Postcode = 3,
}

/** Upper case without spaces or dashes, as patterns are stored: `sw1a 1aa` is `SW1A1AA`. */
export const normalPostcode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

/** Exact (`10115`) or prefix (`10*`); compared as normalPostcode. */
export function postcodeMatches(pattern: string, postcode: string): boolean {
  const code = normalPostcode(postcode);
  return pattern.endsWith('*') ? code.startsWith(pattern.slice(0, -1)) : code === pattern;
}

/** The `COUNTRY-REGION` code of an address (`US-CA`), or null without a region. */
export function regionCodeOf(address: Pick<PostalAddress, 'country' | 'region'>): string | null {
  const region = address.region?.trim().toUpperCase();
  return region ? `${address.country.toUpperCase()}-${region}` : null;
}

function specificity(zone: ZoneForMatching, address: Pick<PostalAddress, 'country' | 'region' | 'postalCode'>): Specificity | null {
  if (zone.restOfWorld) return Specificity.RestOfWorld;
  const region = regionCodeOf(address);
  const place = region && zone.regions.includes(region) ? Specificity.Region : zone.countries.includes(address.country.toUpperCase()) ? Specificity.Country : null;
  if (place === null || zone.postcodes.length === 0) return place;
  const code = address.postalCode ?? '';
  return code && zone.postcodes.some((p) => postcodeMatches(p, code)) ? Specificity.Postcode : null;
}

/** The zone that serves `address` (the rest-of-world zone for none yet), or null when none does. */
export function zoneFor<Z extends ZoneForMatching>(zones: readonly Z[], address: Pick<PostalAddress, 'country' | 'region' | 'postalCode'> | null | undefined): Z | null {
  let best: { zone: Z; rank: Specificity } | null = null;
  for (const zone of zones) {
    const rank = address ? specificity(zone, address) : zone.restOfWorld ? Specificity.RestOfWorld : null;
    if (rank === null) continue;
    const older = best && rank === best.rank && (zone.createdAt < best.zone.createdAt || (zone.createdAt === best.zone.createdAt && zone.id < best.zone.id));
    if (!best || rank > best.rank || older) best = { zone, rank };
  }
  return best?.zone ?? null;
}
