import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import { createCoupon, getCoupon } from '../../src/modules/coupons/coupons.service';
import { adminKey, api, db, uid } from '../helpers';
import { errorOf, get, submit } from './panel-client';
import { signedIn } from './people-client';

/**
 * The panel's per-currency rows (src/admin/currency-fields.ts): a coupon's own amounts and a shipping
 * method's own rates in each of the store's currencies but the default, blank rows converted.
 */

beforeAll(async () => {
  await db()
    .insert(currencies)
    .values([
      { code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92' },
      { code: 'GBP', name: 'Pound', symbol: '£', minorUnits: 2, exchangeRate: '0.79' },
    ])
    .onConflictDoNothing();
});

/** The value an input of the page shows. */
const inputValue = (html: string, name: string) => new RegExp(`<input[^>]*name="${name.replace('.', '\\.')}"[^>]*value="([^"]*)"`).exec(html)?.[1];

/** Every field of the coupon edit form, as a browser posts it, with the currencies' rows blank. */
const couponForm = (code: string, over: Record<string, string> = {}) => ({
  code,
  type: 'fixed',
  value: '10',
  minSubtotal: '',
  'value.EUR': '',
  'minSubtotal.EUR': '',
  'value.GBP': '',
  'minSubtotal.GBP': '',
  startsAt: '',
  endsAt: '',
  usageLimit: '',
  usageLimitPerCustomer: '',
  productIds: '',
  categoryIds: '',
  description: '',
  active: 'on',
  ...over,
});

describe('admin coupons: amounts per currency', () => {
  it('shows a row for each currency but the default, saves the filled ones, and refuses an amount with too many decimals next to its row', async () => {
    const { session } = await signedIn('admin');
    const coupon = await createCoupon(db(), { code: `PC-${uid()}`.toUpperCase(), type: 'fixed', value: 10, currencyAmounts: [{ currency: 'EUR', value: 5 }] });
    const path = `/admin/coupons/${coupon.id}`;
    const page = await get(path, session);
    expect(page.html).toContain('Amount (EUR)');
    expect(page.html).toContain('Amount (GBP)');
    expect(page.html).not.toContain('Amount (USD)');
    expect(inputValue(page.html, 'value.EUR')).toBe('5');
    expect(inputValue(page.html, 'value.GBP')).toBe('');

    const saved = await submit(path, path, couponForm(coupon.code, { 'value.EUR': '4', 'minSubtotal.EUR': '30', 'value.GBP': '3.5' }), session);
    expect(saved.res.status, saved.html.slice(0, 500)).toBe(303);
    expect((await getCoupon(db(), coupon.id)).currencyAmounts).toEqual([
      { currency: 'EUR', value: 4, minSubtotal: 30 },
      { currency: 'GBP', value: 3.5, minSubtotal: null },
    ]);

    const bad = await submit(path, path, couponForm(coupon.code, { 'value.EUR': '4', 'value.GBP': '3.555' }), session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'value-GBP')).toMatch(/at most 2 decimals \(the minor units of GBP\)/);
    expect(inputValue(bad.html, 'value.GBP')).toBe('3.555');
    expect((await getCoupon(db(), coupon.id)).currencyAmounts).toHaveLength(2);

    // Blank rows: carts in every currency convert the value again.
    expect((await submit(path, path, couponForm(coupon.code), session)).res.status).toBe(303);
    expect((await getCoupon(db(), coupon.id)).currencyAmounts).toEqual([]);
  });
});

describe('admin shipping: rates per currency', () => {
  const HOME = '/admin/settings/shipping';
  const methodsOf = async (id: string) => (await api(`/api/settings/shipping-zones/${id}/methods`, { key: await adminKey() })).body.data;
  const base = { name: 'Post', carrier: '', minDeliveryDays: '', maxDeliveryDays: '', position: '0', rateType: 'flat', amount: '5', bands: '', freeAbove: '', active: 'on' };

  it("adds a method with its own rates in some currencies, shows them, and names a bad band in its currency's row", async () => {
    const { session } = await signedIn('admin');
    const zone = (await api('/api/settings/shipping-zones', { method: 'POST', key: await adminKey(), json: { name: `Zone ${uid()}`, countries: ['AT'] } })).body.data.id;
    const zonePath = `${HOME}/zones/${zone}`;
    const form = await get(zonePath, session);
    expect(form.html).toContain('Own rate in EUR');
    expect(form.html).toContain('Own rate in GBP');
    expect(form.html).not.toContain('Own rate in USD');

    const added = await submit(
      zonePath,
      `${zonePath}/methods`,
      { ...base, 'rateType.EUR': 'flat', 'amount.EUR': '4.9', 'freeAbove.EUR': '50', 'rateType.GBP': 'weight', 'bands.GBP': '2 3.95\n* 9.5' },
      session,
    );
    expect(added.res.status, added.html.slice(0, 500)).toBe(303);
    const [method] = await methodsOf(zone);
    expect(method.currencyRates).toEqual([
      { currency: 'EUR', rate: { type: 'flat', amount: 4.9 }, freeAbove: 50 },
      {
        currency: 'GBP',
        rate: {
          type: 'weight',
          bands: [
            { upTo: 2, amount: 3.95 },
            { upTo: null, amount: 9.5 },
          ],
        },
        freeAbove: null,
      },
    ]);
    expect((await get(HOME, session)).html).toContain('5.00 USD · EUR: 4.90 EUR; free from 50.00 EUR · GBP: up to 2 kg: 3.95 GBP, above 2 kg: 9.50 GBP');
    const methodPath = `${zonePath}/methods/${method.id}`;
    const edit = await get(methodPath, session);
    expect(inputValue(edit.html, 'amount.EUR')).toBe('4.9');
    expect(edit.html).toContain('2 3.95\n* 9.5');

    const descending = await submit(methodPath, methodPath, { ...base, 'rateType.EUR': 'price', 'bands.EUR': '10 1\n5 2' }, session);
    expect(descending.res.status).toBe(422);
    expect(errorOf(descending.html, 'bands-EUR')).toMatch(/^line 2: must be above the previous band/);
    const words = await submit(methodPath, methodPath, { ...base, 'rateType.GBP': 'weight', 'bands.GBP': 'heavy' }, session);
    expect(words.res.status).toBe(422);
    expect(errorOf(words.html, 'bands-GBP')).toMatch(/^line 1 \(&quot;heavy&quot;\) must be two numbers/);
    expect((await methodsOf(zone))[0].currencyRates).toHaveLength(2);

    // No rate type chosen: the currency converts the default rate again.
    expect((await submit(methodPath, methodPath, { ...base, 'rateType.EUR': 'flat', 'amount.EUR': '6' }, session)).res.status).toBe(303);
    expect((await methodsOf(zone))[0].currencyRates).toEqual([{ currency: 'EUR', rate: { type: 'flat', amount: 6 }, freeAbove: null }]);
  });
});
