import { z } from '@hono/zod-openapi';
import { shippingZones } from '../../db/schema';
import { ISO_COUNTRY_CODES } from '../../lib/country-codes';
import { createSelectSchema, Timestamp } from '../../lib/schemas';
import { TaxCountry } from '../settings/schemas';
import { normalPostcode } from '../checkout';

/** Lists a zone holds at most (countries: every ISO 3166-1 code fits). */
const MAX_PLACES = 300;
const MAX_POSTCODES = 1000;

/** ISO 3166-2 (`US-CA`): a country, then the subdivision code as tax rates spell their `region` (1 to 3 letters or digits). */
export const ZoneRegion = z
  .string()
  .regex(/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/, 'must be an ISO 3166-2 code: the country, a dash and the region code, like US-CA')
  .transform((code) => code.toUpperCase())
  .refine((code) => ISO_COUNTRY_CODES.has(code.slice(0, 2)), 'does not start with an assigned ISO 3166-1 country code')
  .openapi({ example: 'US-CA', description: "ISO 3166-2, upper-cased: an address's `country` and `region` (as tax rates name regions) joined by a dash." });

/** A postcode pattern: exact, or a prefix ending in `*`; kept upper case without spaces or dashes. */
export const PostcodePattern = z
  .string()
  .regex(/^[A-Za-z0-9 -]{1,16}\*?$/, 'must be a postcode (letters, digits, spaces, dashes), or the start of one followed by *, like 10*')
  .transform(normalPostcode)
  .refine((p) => p.replace('*', '').length > 0, 'must have at least one letter or digit')
  .openapi({ example: '10*', description: 'Exact (`10115`) or a prefix ending in `*` (`10*`); compared without case, spaces or dashes.' });

const unique = <T extends z.ZodType<string, string>>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .transform((list) => [...new Set(list)]);

const ZONE_DESCRIPTION =
  'Where a store ships. An address is served by the most specific zone that matches it: a zone with `postcodes` matching its postal code ' +
  "(within the zone's countries or regions), then a zone listing its region (`US-CA`), then one listing its country, and last the " +
  'rest-of-world zone (`restOfWorld: true`, at most one), which serves every address no other zone does. Among equally specific zones the ' +
  'oldest wins. A zone with `postcodes` serves only addresses whose postal code matches one of them. The shipping options of an address are ' +
  'the active methods of its zone (`/api/settings/shipping-zones/{id}/methods`). A store with no zone at all charges no shipping.';

export const ShippingZoneSchema = createSelectSchema(shippingZones, {
  countries: z.array(z.string()).openapi({ description: 'ISO 3166-1 alpha-2 codes, upper case.', example: ['DE'] }),
  regions: z.array(z.string()).openapi({ description: 'ISO 3166-2 codes (`US-CA`), upper case.', example: [] }),
  postcodes: z.array(z.string()).openapi({ description: 'Postcode patterns: exact (`10115`) or prefix (`10*`), upper case without spaces or dashes.', example: [] }),
  restOfWorld: z.boolean().openapi({ description: 'Serves every address no other zone serves (at most one such zone).' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('ShippingZone', { description: ZONE_DESCRIPTION });
export type ShippingZone = z.infer<typeof ShippingZoneSchema>;

const fields = {
  name: z.string().trim().min(1).max(200).openapi({ example: 'Germany' }),
  countries: unique(TaxCountry, MAX_PLACES).openapi({ description: 'ISO 3166-1 alpha-2 codes (any case, kept upper case).', example: ['DE'] }),
  regions: unique(ZoneRegion, MAX_PLACES).openapi({ description: 'ISO 3166-2 codes (`US-CA`), for regions served apart from their whole country.', example: [] }),
  postcodes: unique(PostcodePattern, MAX_POSTCODES).openapi({
    description: "Only addresses whose postal code matches one of these, within the zone's countries and regions: exact (`10115`) or prefix (`10*`).",
    example: [],
  }),
  restOfWorld: z.boolean().openapi({
    description: 'The zone for every address no other zone serves: it lists no countries, regions or postcodes, and a second one is 409.',
  }),
};

export const CreateShippingZoneBody = z
  .strictObject({
    ...fields,
    countries: fields.countries.optional(),
    regions: fields.regions.optional(),
    postcodes: fields.postcodes.optional(),
    restOfWorld: fields.restOfWorld.optional(),
  })
  .openapi('CreateShippingZone');
export const UpdateShippingZoneBody = z.strictObject(fields).partial().openapi('UpdateShippingZone');

export type CreateShippingZoneInput = z.infer<typeof CreateShippingZoneBody>;
export type UpdateShippingZoneInput = z.infer<typeof UpdateShippingZoneBody>;
