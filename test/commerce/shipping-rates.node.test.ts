import { describe, expect, it } from 'vitest';
import type { ShippingMethodRow, ShippingRate, ShippingZoneRow } from '../../src/db/schema';
import { shippingFor } from '../../src/modules/checkout/shipping-choice';
import { cartWeight, methodPrice } from '../../src/modules/checkout/shipping-rates';
import { postcodeMatches, zoneFor } from '../../src/modules/checkout/shipping-zones';

/** The pure parts of shipping (src/modules/shipping): which zone serves an address, and what a method charges. */

const same = (minor: number) => minor;
const weightRate: ShippingRate = {
  type: 'weight',
  bands: [
    { upTo: 1, amount: 490 },
    { upTo: 5, amount: 690 },
    { upTo: 31.5, amount: 1690 },
  ],
};
const priceRate: ShippingRate = {
  type: 'price',
  bands: [
    { from: 1000, amount: 800 },
    { from: 5000, amount: 300 },
  ],
};

describe('methodPrice', () => {
  it.each([
    ['flat', { type: 'flat', amount: 495 } as ShippingRate, 99, 0, 495],
    ['weight: the first band whose upTo the weight does not exceed (inclusive)', weightRate, 1, 0, 490],
    ['weight: just above a band', weightRate, 1.000001, 0, 690],
    ['weight: the last closed band', weightRate, 31.5, 0, 1690],
    ['weight: heavier than every band is not served', weightRate, 31.6, 0, null],
    [
      'weight: an open last band serves any weight',
      {
        type: 'weight',
        bands: [
          { upTo: 2, amount: 100 },
          { upTo: null, amount: 900 },
        ],
      } as ShippingRate,
      1e6,
      0,
      900,
    ],
    ['price: below the first band is not served', priceRate, 0, 999, null],
    ['price: from the first band', priceRate, 0, 1000, 800],
    ['price: the last band reached', priceRate, 0, 7000, 300],
  ])('%s', (_, rate, weight, subtotal, expected) => {
    expect(methodPrice(rate, null, { weight, discountedSubtotal: subtotal }, same)).toBe(expected);
  });

  it('costs 0 from freeAbove on, but only where the method serves the cart at all', () => {
    const flat: ShippingRate = { type: 'flat', amount: 495 };
    expect(methodPrice(flat, 5000, { weight: 0, discountedSubtotal: 4999 }, same)).toBe(495);
    expect(methodPrice(flat, 5000, { weight: 0, discountedSubtotal: 5000 }, same)).toBe(0);
    expect(methodPrice(weightRate, 5000, { weight: 40, discountedSubtotal: 9000 }, same)).toBeNull();
  });

  it("converts the rate's amounts, and the bands' and freeAbove's thresholds, to the cart's currency", () => {
    const double = (minor: number) => minor * 2;
    expect(methodPrice({ type: 'flat', amount: 495 }, 5000, { weight: 0, discountedSubtotal: 9999 }, double)).toBe(990);
    expect(methodPrice({ type: 'flat', amount: 495 }, 5000, { weight: 0, discountedSubtotal: 10000 }, double)).toBe(0);
    expect(methodPrice(priceRate, null, { weight: 0, discountedSubtotal: 1999 }, double)).toBeNull();
  });

  it('sums weights exactly enough that 3 x 0.1 fits a band up to 0.3', () => {
    expect(
      cartWeight([
        { weight: 0.1, quantity: 3 },
        { weight: null, quantity: 5 },
      ]),
    ).toBe(0.3);
    expect(methodPrice({ type: 'weight', bands: [{ upTo: 0.3, amount: 1 }] }, null, { weight: cartWeight([{ weight: 0.1, quantity: 3 }]), discountedSubtotal: 0 }, same)).toBe(1);
  });
});

let n = 0;
const zone = (fields: Partial<ShippingZoneRow>): ShippingZoneRow => ({
  id: `szone_${++n}`,
  name: `zone ${n}`,
  countries: [],
  regions: [],
  postcodes: [],
  restOfWorld: false,
  createdAt: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});
const address = (country: string, postalCode?: string, region?: string) => ({ country, postalCode, region });

describe('zoneFor', () => {
  const world = zone({ restOfWorld: true });
  const eu = zone({ countries: ['DE', 'FR', 'AT'] });
  const germany = zone({ countries: ['DE'] });
  const berlin = zone({ countries: ['DE'], postcodes: ['10*', '12345'] });
  const california = zone({ regions: ['US-CA'] });
  const us = zone({ countries: ['US'] });
  const zones = [world, eu, germany, berlin, california, us];

  it.each([
    ['a postcode match beats the region and country', address('DE', '10115'), berlin],
    ['an exact postcode, compared without spaces or case', address('de', '123 45'), berlin],
    ['the oldest of equally specific zones (EU lists DE before the Germany zone was made)', address('DE', '80331'), eu],
    ['a zone with postcodes serves no other postcode of its country', address('DE', '20095'), eu],
    ['a region beats its country', address('US', '94103', 'ca'), california],
    ['the country where the region is not listed', address('US', '10001', 'NY'), us],
    ['the rest of the world for any other address', address('JP', '100-0001'), world],
  ])('%s', (_, a, expected) => {
    expect(zoneFor(zones, a)?.id).toBe(expected.id);
  });

  it('serves an address without a region or postcode by country, and none yet by the rest of the world', () => {
    expect(zoneFor([berlin, germany], address('DE'))?.id).toBe(germany.id);
    expect(zoneFor(zones, null)?.id).toBe(world.id);
    expect(zoneFor([germany], null)).toBeNull();
    expect(zoneFor([germany], address('FR'))).toBeNull();
  });

  it('matches postcode patterns exactly or by prefix', () => {
    expect(postcodeMatches('10*', '10999')).toBe(true);
    expect(postcodeMatches('10*', '01099')).toBe(false);
    expect(postcodeMatches('SW1A*', 'sw1a 1aa')).toBe(true);
    expect(postcodeMatches('10115', '101150')).toBe(false);
  });
});

describe('shippingFor', () => {
  const de = zone({ countries: ['DE'] });
  const method = (fields: Partial<ShippingMethodRow>): ShippingMethodRow => ({
    id: `smeth_${++n}`,
    zoneId: de.id,
    name: 'm',
    carrier: null,
    minDeliveryDays: null,
    maxDeliveryDays: null,
    active: true,
    position: 0,
    rate: { type: 'flat', amount: 100 },
    freeAbove: null,
    currencyRates: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  });
  const paket = method({ name: 'Paket', position: 1, rate: weightRate });
  const express = method({ name: 'Express', position: 2, rate: { type: 'flat', amount: 1290 } });
  const off = method({ name: 'Off', position: 0, active: false, rate: { type: 'flat', amount: 1 } });
  const inputs = { zones: [de], methods: [express, off, paket] };
  const cart = { weight: 2, discountedSubtotal: 3000, currency: 'USD' };

  it('offers the active methods of the zone by position, each priced, and ships by the cheapest unless one is chosen', () => {
    const s = shippingFor(inputs, address('DE'), cart, same);
    expect(s.options.map((o) => [o.method.name, o.price])).toEqual([
      ['Paket', 690],
      ['Express', 1290],
    ]);
    expect(s.chosen?.method.name).toBe('Paket');
    expect(shippingFor(inputs, address('DE'), cart, same, express.id).chosen?.method.name).toBe('Express');
  });

  it('names shippingMethodId for a choice that does not serve the cart, and shippingAddress where nothing does', () => {
    expect(shippingFor(inputs, address('DE'), cart, same, off.id).problem?.field).toBe('shippingMethodId');
    const abroad = shippingFor(inputs, address('FR'), cart, same);
    expect(abroad).toMatchObject({ options: [], chosen: null, problem: { field: 'shippingAddress' } });
  });

  it("prices a cart in a currency the method has its own rate for by that rate and threshold, unconverted; others by the default's converted", () => {
    const own = method({
      name: 'Own',
      rate: { type: 'flat', amount: 500 },
      freeAbove: 10_000,
      currencyRates: { EUR: { rate: { type: 'price', bands: [{ from: 0, amount: 490 }] }, freeAbove: 2500 } },
    });
    const priced = (currency: string, discountedSubtotal: number) =>
      shippingFor({ zones: [de], methods: [own] }, address('DE'), { weight: 2, discountedSubtotal, currency }, (minor) => minor * 2).chosen?.price;
    expect(priced('EUR', 2499)).toBe(490);
    expect(priced('EUR', 2500)).toBe(0);
    expect(priced('GBP', 2500)).toBe(1000);
    expect(priced('GBP', 20_000)).toBe(0);
  });

  it('charges nothing and refuses nothing in a store without zones', () => {
    expect(shippingFor({ zones: [], methods: [] }, address('FR'), cart, same)).toEqual({ options: [], chosen: null, problem: null });
  });
});
