import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shippingMethods } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { createCoupon, getCoupon } from '../../src/modules/coupons/coupons.service';
import { createRole } from '../../src/modules/roles/roles.service';
import { createCurrency, getCurrency } from '../../src/modules/settings/currencies.service';
import { getSettings } from '../../src/modules/settings/settings.service';
import { createTaxRate, getTaxRate } from '../../src/modules/settings/taxes.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, db, uid } from '../helpers';
import { cookieIn, csrfIn, get, post, signIn } from './panel-client';

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function staff(roleId: string) {
  const email = `${roleId.slice(0, 20)}-${uid()}@example.com`;
  const password = 'correct horse battery';
  await createUser(db(), { email, password, roleId, vendorId: null });
  return (await signIn(email, password)).session;
}

/** A signed-in user whose role holds only these permissions. */
async function withPermissions(permissions: string[]) {
  const role = await createRole(db(), ROOT, { name: `Role ${uid()}`, permissions });
  return staff(role.id);
}

/** Posts a form of the panel with the CSRF token of the page it is on. */
async function submit(from: string, to: string, form: Record<string, string>, session: string) {
  const token = csrfIn((await get(from, session)).html);
  return post(to, { _csrf: token, ...form }, session);
}

const flashOf = (res: Response) => {
  const raw = cookieIn(res, 'admin_flash')?.split(';')[0]?.split('=').slice(1).join('=');
  return raw ? (JSON.parse(decodeURIComponent(decodeURIComponent(raw))) as { kind: string; text: string }) : null;
};
const errorOf = (html: string, field: string) => new RegExp(`id="f-${field}-error">([^<]*)<`).exec(html)?.[1];
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');

async function newCoupon(extra: Record<string, unknown> = {}) {
  return createCoupon(db(), { code: `ED-${uid()}`.toUpperCase(), type: 'percentage', value: 10, ...extra });
}

async function newCurrency() {
  for (;;) {
    try {
      return await createCurrency(db(), { code: `Q${letters(2)}`, name: 'Test money', symbol: 'Q', minorUnits: 2, exchangeRate: 2.5 });
    } catch {
      // taken: another code
    }
  }
}

async function newTaxRate() {
  for (;;) {
    try {
      return await createTaxRate(db(), { name: `Tax ${uid()}`, country: 'US', region: `Z${letters(2)}`, rate: 5 });
    } catch {
      // taken: another region
    }
  }
}

/** Every field of the coupon edit form, as a browser posts it. */
const couponForm = (over: Record<string, string> = {}) => ({
  code: '',
  type: 'percentage',
  value: '10',
  minSubtotal: '',
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

describe('admin coupons: edit', () => {
  it('shows the coupon with its usage and saves every field PATCH allows', async () => {
    const session = await staff('admin');
    const coupon = await newCoupon({ usageLimit: 50, description: 'Old' });
    const page = await get(`/admin/coupons/${coupon.id}`, session);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('Times used');
    expect(page.html).toContain(`data-times-used="0"`);
    expect(page.html).toContain(`value="${coupon.code}"`);
    expect((await get('/admin/coupons', session)).html).toContain(`href="/admin/coupons/${coupon.id}"`);

    const code = `NEW-${uid()}`.slice(0, 40).toUpperCase();
    const saved = await submit(
      `/admin/coupons/${coupon.id}`,
      `/admin/coupons/${coupon.id}`,
      couponForm({
        code,
        type: 'fixed',
        value: '7.5',
        minSubtotal: '30',
        startsAt: '2026-01-01T00:00',
        endsAt: '2027-06-30T23:59:59.999',
        usageLimit: '100',
        usageLimitPerCustomer: '2',
        description: 'Seven fifty off',
        active: '',
      }),
      session,
    );
    expect(saved.res.status).toBe(303);
    expect(saved.res.headers.get('Location')).toBe(`/admin/coupons/${coupon.id}`);
    expect(flashOf(saved.res)?.text).toContain('saved');
    const after = await getCoupon(db(), coupon.id);
    expect(after).toMatchObject({
      code,
      type: 'fixed',
      value: 7.5,
      minSubtotal: 30,
      startsAt: '2026-01-01T00:00:00.000Z',
      endsAt: '2027-06-30T23:59:59.999Z',
      usageLimit: 100,
      usageLimitPerCustomer: 2,
      description: 'Seven fifty off',
      active: false,
    });
    // Seen through the API too.
    const viaApi = await api(`/api/coupons/${coupon.id}`, { key: await adminKey() });
    expect(viaApi.body.data.value).toBe(7.5);

    // Cleared fields go back to null; the form shows the stored instants again.
    const cleared = await submit(`/admin/coupons/${coupon.id}`, `/admin/coupons/${coupon.id}`, couponForm({ code, type: 'fixed', value: '7.5', active: 'on' }), session);
    expect(cleared.res.status).toBe(303);
    expect(await getCoupon(db(), coupon.id)).toMatchObject({ minSubtotal: null, startsAt: null, endsAt: null, usageLimit: null, description: null, active: true });
  });

  it('answers bad input with 422 next to the fields, the form refilled, and a duplicate code with 409', async () => {
    const session = await staff('admin');
    const coupon = await newCoupon();
    const other = await newCoupon();
    const path = `/admin/coupons/${coupon.id}`;

    const bad = await submit(
      path,
      path,
      couponForm({ code: coupon.code, value: '150', startsAt: '2027-01-01T00:00', endsAt: '2026-01-01T00:00', description: 'Kept text' }),
      session,
    );
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'value')).toMatch(/percentage/);
    expect(errorOf(bad.html, 'endsAt')).toMatch(/after startsAt/);
    expect(bad.html).toContain('value="Kept text"');
    expect(bad.html).toContain('value="150"');

    const notNumber = await submit(path, path, couponForm({ code: coupon.code, value: 'abc', usageLimit: '0', productIds: 'prd_missing' }), session);
    expect(notNumber.res.status).toBe(422);
    expect(errorOf(notNumber.html, 'value')).toBeTruthy();
    expect(errorOf(notNumber.html, 'usageLimit')).toBeTruthy();

    const missing = await submit(path, path, couponForm({ code: coupon.code, productIds: 'prd_missing_1\nprd_missing_2' }), session);
    expect(missing.res.status).toBe(422);
    expect(errorOf(missing.html, 'productIds')).toMatch(/prd_missing_1, prd_missing_2/);

    const duplicate = await submit(path, path, couponForm({ code: other.code.toLowerCase() }), session);
    expect(duplicate.res.status).toBe(409);
    expect(errorOf(duplicate.html, 'code')).toBeTruthy();
    expect((await getCoupon(db(), coupon.id)).code).toBe(coupon.code);

    const unknown = await get('/admin/coupons/cpn_nope', session);
    expect(unknown.res.status).toBe(404);
  });

  it('lets coupons:read see a coupon without a save button, and refuses its save (403)', async () => {
    const reader = await withPermissions(['coupons:read']);
    const coupon = await newCoupon();
    const page = await get(`/admin/coupons/${coupon.id}`, reader);
    expect(page.res.status).toBe(200);
    expect(page.html).not.toContain('Save coupon');
    const refused = await post(`/admin/coupons/${coupon.id}`, { _csrf: csrfIn(page.html), ...couponForm({ code: coupon.code, value: '20' }) }, reader);
    expect(refused.res.status).toBe(403);
    expect((await getCoupon(db(), coupon.id)).value).toBe(10);

    const nobody = await withPermissions(['orders:read']);
    expect((await get(`/admin/coupons/${coupon.id}`, nobody)).res.status).toBe(403);
  });
});

describe('admin settings: currencies', () => {
  it('edits a currency (rate, name, symbol, decimals, enabled) and deletes an unused one', async () => {
    const session = await staff('admin');
    const currency = await newCurrency();
    const settingsPage = await get('/admin/settings', session);
    expect(settingsPage.html).toContain(`href="/admin/settings/currencies/${currency.code}"`);
    const path = `/admin/settings/currencies/${currency.code}`;
    const edit = await get(path, session);
    expect(edit.res.status).toBe(200);
    expect(edit.html).toContain('value="2.5"');

    const saved = await submit(path, path, { name: 'Renamed money', symbol: 'Q$', minorUnits: '3', exchangeRate: '1.23456789', enabled: '' }, session);
    expect(saved.res.status).toBe(303);
    expect(flashOf(saved.res)?.text).toContain(currency.code);
    expect(await getCurrency(db(), currency.code)).toMatchObject({ name: 'Renamed money', symbol: 'Q$', minorUnits: 3, exchangeRate: 1.23456789, enabled: false });

    const bad = await submit(path, path, { name: '', symbol: 'Q', minorUnits: '9', exchangeRate: '-1', enabled: 'on' }, session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'name')).toBeTruthy();
    expect(errorOf(bad.html, 'minorUnits')).toBeTruthy();
    expect(errorOf(bad.html, 'exchangeRate')).toBeTruthy();
    expect(bad.html).toContain('value="-1"');

    const deleted = await submit(path, `${path}/delete`, {}, session);
    expect(deleted.res.status).toBe(303);
    expect((await api(`/api/settings/currencies/${currency.code}`, { key: await adminKey() })).status).toBe(404);
  });

  it("refuses the default currency's delete, disabling and rate change with the API's message (409)", async () => {
    const session = await staff('admin');
    const code = (await getSettings(db())).defaultCurrency;
    const path = `/admin/settings/currencies/${code}`;
    const before = await getCurrency(db(), code);

    const del = await submit(path, `${path}/delete`, {}, session);
    expect(del.res.status).toBe(409);
    expect(del.html).toContain(`${code} is the default currency and cannot be deleted`);
    expect(del.html).toContain(`value="${before.name}"`);

    const disable = await submit(path, path, { name: before.name, symbol: before.symbol, minorUnits: String(before.minorUnits), exchangeRate: '1', enabled: '' }, session);
    expect(disable.res.status).toBe(409);
    expect(disable.html).toContain('cannot be disabled');

    const rate = await submit(path, path, { name: before.name, symbol: before.symbol, minorUnits: String(before.minorUnits), exchangeRate: '2', enabled: 'on' }, session);
    expect(rate.res.status).toBe(409);
    expect(rate.html).toContain('its exchange rate is always 1');
    expect(rate.html).toContain('value="2"');
    expect(await getCurrency(db(), code)).toMatchObject({ enabled: true, exchangeRate: 1 });
  });

  it('refuses currency edits and deletes without settings:write (403) and hides the links', async () => {
    const reader = await withPermissions(['settings:read']);
    const currency = await newCurrency();
    const page = await get('/admin/settings', reader);
    expect(page.res.status).toBe(200);
    expect(page.html).not.toContain(`/admin/settings/currencies/${currency.code}`);
    const path = `/admin/settings/currencies/${currency.code}`;
    expect((await get(path, reader)).res.status).toBe(403);
    const token = csrfIn(page.html);
    expect((await post(path, { _csrf: token, name: 'X', symbol: 'X', exchangeRate: '9' }, reader)).res.status).toBe(403);
    expect((await post(`${path}/delete`, { _csrf: token }, reader)).res.status).toBe(403);
    expect((await getCurrency(db(), currency.code)).exchangeRate).toBe(2.5);
  });
});

describe('admin settings: tax rates', () => {
  it('edits a tax rate, refuses bad input (422) and a second rate for the same place (409)', async () => {
    const session = await staff('admin');
    const rate = await newTaxRate();
    const other = await newTaxRate();
    expect((await get('/admin/settings', session)).html).toContain(`href="/admin/settings/taxes/${rate.id}"`);
    const path = `/admin/settings/taxes/${rate.id}`;
    expect((await get(path, session)).res.status).toBe(200);

    const saved = await submit(path, path, { name: 'Edited tax', country: 'us', region: rate.region!.toLowerCase(), rate: '8.875', shippingTaxable: 'on' }, session);
    expect(saved.res.status).toBe(303);
    expect(await getTaxRate(db(), rate.id)).toMatchObject({ name: 'Edited tax', country: 'US', region: rate.region, rate: 8.875, shippingTaxable: true });

    const bad = await submit(path, path, { name: 'Kept name', country: 'XX', region: 'TOOLONG', rate: '101', shippingTaxable: '' }, session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'country')).toBeTruthy();
    expect(errorOf(bad.html, 'region')).toBeTruthy();
    expect(errorOf(bad.html, 'rate')).toBeTruthy();
    expect(bad.html).toContain('value="Kept name"');

    const clash = await submit(path, path, { name: 'Clash', country: 'US', region: other.region!, rate: '5' }, session);
    expect(clash.res.status).toBe(409);
    expect(clash.html).toContain('already exists');
    expect((await getTaxRate(db(), rate.id)).region).toBe(rate.region);
  });

  it('creates a tax rate with shipping taxed', async () => {
    const session = await staff('admin');
    const region = `Y${letters(2)}`;
    const created = await submit('/admin/settings', '/admin/settings/taxes', { name: `Ship tax ${region}`, country: 'CA', region, rate: '5', shippingTaxable: 'on' }, session);
    expect(created.res.status).toBe(303);
    const list = await api(`/api/settings/taxes?country=CA&limit=100`, { key: await adminKey() });
    const row = (list.body.data as { region: string; shippingTaxable: boolean }[]).find((t) => t.region === region);
    expect(row?.shippingTaxable).toBe(true);
  });

  it('refuses tax edits without settings:write (403)', async () => {
    const reader = await withPermissions(['settings:read']);
    const rate = await newTaxRate();
    const page = await get('/admin/settings', reader);
    expect(page.html).not.toContain(`/admin/settings/taxes/${rate.id}"`);
    expect((await get(`/admin/settings/taxes/${rate.id}`, reader)).res.status).toBe(403);
    const refused = await post(`/admin/settings/taxes/${rate.id}`, { _csrf: csrfIn(page.html), name: 'No', country: 'US', rate: '1' }, reader);
    expect(refused.res.status).toBe(403);
    expect((await getTaxRate(db(), rate.id)).rate).toBe(5);
  });
});

describe('admin settings: storefront origins', () => {
  it('saves the CORS origins one a line, and refuses one that is not an origin next to the field', async () => {
    const session = await staff('admin');
    const current = await getSettings(db());
    const store = {
      name: current.name,
      contactEmail: current.contactEmail ?? '',
      defaultCurrency: current.defaultCurrency,
      weightUnit: current.weightUnit,
      lowStockThreshold: String(current.lowStockThreshold),
      shippingFlatRate: String(current.shippingFlatRate),
      freeShippingThreshold: current.freeShippingThreshold === null ? '' : String(current.freeShippingThreshold),
    };
    const saved = await submit('/admin/settings', '/admin/settings', { ...store, allowedOrigins: 'https://shop.example\r\nhttps://*.shop.example\r\n' }, session);
    expect(saved.res.status).toBe(303);
    expect((await getSettings(db())).allowedOrigins).toEqual(['https://shop.example', 'https://*.shop.example']);
    expect((await get('/admin/settings', session)).html).toContain('https://shop.example\nhttps://*.shop.example</textarea>');

    const refused = await submit('/admin/settings', '/admin/settings', { ...store, allowedOrigins: 'https://shop.example/checkout' }, session);
    expect(refused.res.status).toBe(422);
    expect(errorOf(refused.html, 'allowedOrigins')).toContain('an origin has no path');
    expect((await getSettings(db())).allowedOrigins).toEqual(['https://shop.example', 'https://*.shop.example']);
  });
});

describe('admin settings: the deprecated shipping fields', () => {
  it('edits the Standard shipping method while it is flat, and leaves the fields out (saving the rest) once it is not', async () => {
    const session = await staff('admin');
    const current = await getSettings(db());
    const store = { name: current.name, defaultCurrency: current.defaultCurrency, weightUnit: current.weightUnit, lowStockThreshold: String(current.lowStockThreshold) };
    expect((await get('/admin/settings', session)).html).toContain('name="shippingFlatRate"');
    const saved = await submit('/admin/settings', '/admin/settings', { ...store, shippingFlatRate: '3.5', freeShippingThreshold: '' }, session);
    expect(saved.res.status).toBe(303);
    expect(await getSettings(db())).toMatchObject({ shippingFlatRate: 3.5, freeShippingThreshold: null });

    const [standard] = await db().select().from(shippingMethods).where(eq(shippingMethods.id, 'smeth_standard'));
    await db()
      .update(shippingMethods)
      .set({ rate: { type: 'weight', bands: [{ upTo: null, amount: 100 }] } })
      .where(eq(shippingMethods.id, 'smeth_standard'));
    try {
      expect((await get('/admin/settings', session)).html).not.toContain('name="shippingFlatRate"');
      const renamed = await submit('/admin/settings', '/admin/settings', { ...store, name: 'Renamed shop' }, session);
      expect(renamed.res.status).toBe(303);
      expect((await getSettings(db())).name).toBe('Renamed shop');
    } finally {
      await db().update(shippingMethods).set({ rate: standard!.rate }).where(eq(shippingMethods.id, 'smeth_standard'));
    }
  });
});
