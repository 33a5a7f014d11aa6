import { describe, expect, it } from 'vitest';
import { deliveryDays } from '../../src/admin/pages/shipping';
import { adminKey, api, createProduct, uid } from '../helpers';
import { errorOf, flashOf, get, post, submit } from './panel-client';
import { role, signedIn } from './people-client';

/** The panel's shipping pages (src/admin/routes/shipping.tsx) drive /api/settings/shipping-zones and its methods. */

const HOME = '/admin/settings/shipping';
const zoneOf = async (id: string) => (await api(`/api/settings/shipping-zones/${id}`, { key: await adminKey() })).body.data;
const methodsOf = async (id: string) => (await api(`/api/settings/shipping-zones/${id}/methods`, { key: await adminKey() })).body.data;
const zoneIdIn = (res: Response) => /\/zones\/([^/?#]+)$/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';

async function newZone(session: string, form: Record<string, string> = {}) {
  const name = `Zone ${uid()}`;
  const added = await submit(HOME, `${HOME}/zones`, { name, countries: 'de, at', regions: '', postcodes: '', ...form }, session);
  expect(added.res.status, added.html.slice(0, 500)).toBe(303);
  return { id: zoneIdIn(added.res), name, added };
}

describe('admin shipping: zones and methods', () => {
  it('adds a zone from the list page and a weight-banded method from its page, as the API stores them', async () => {
    const { session } = await signedIn('admin');
    const { id, name, added } = await newZone(session, { postcodes: '10*, 20095' });
    expect(flashOf(added.res)?.text).toContain(name);
    expect(await zoneOf(id)).toMatchObject({ name, countries: ['DE', 'AT'], postcodes: ['10*', '20095'], restOfWorld: false });

    const zonePath = `${HOME}/zones/${id}`;
    const method = await submit(
      zonePath,
      `${zonePath}/methods`,
      {
        name: 'DHL Paket',
        carrier: 'DHL',
        minDeliveryDays: '1',
        maxDeliveryDays: '3',
        position: '0',
        rateType: 'weight',
        bands: '1 4.99\n5: 6.99\n* 12.99',
        freeAbove: '100',
        active: 'on',
      },
      session,
    );
    expect(method.res.status, method.html.slice(0, 500)).toBe(303);
    const [stored] = await methodsOf(id);
    expect(stored).toMatchObject({
      name: 'DHL Paket',
      carrier: 'DHL',
      minDeliveryDays: 1,
      maxDeliveryDays: 3,
      active: true,
      freeAbove: 100,
      rate: {
        type: 'weight',
        bands: [
          { upTo: 1, amount: 4.99 },
          { upTo: 5, amount: 6.99 },
          { upTo: null, amount: 12.99 },
        ],
      },
    });

    const list = await get(HOME, session);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(name);
    expect(list.html).toContain('DE, AT; postcodes 10*, 20095');
    // Bands name the store's weight unit, the open band what it starts above; delivery reads as days.
    const unit = (await api('/api/settings', { key: await adminKey() })).body.data.weightUnit;
    expect(list.html).toMatch(new RegExp(`up to 1 ${unit}: [^,]*4\\.99[^,]*, up to 5 ${unit}: [^,]*6\\.99[^,]*, above 5 ${unit}: [^;]*12\\.99`));
    expect(list.html).toContain('<td>1–3 days</td>');
    // The method's page shows its bands as they were typed (one a line) for editing.
    const edit = await get(`${zonePath}/methods/${stored.id}`, session);
    expect(edit.html).toContain('1 4.99\n5 6.99\n* 12.99');
  });

  it('refuses bands that are not two numbers, or that do not ascend, next to the bands (422), the form refilled', async () => {
    const { session } = await signedIn('admin');
    const { id } = await newZone(session);
    const zonePath = `${HOME}/zones/${id}`;
    const base = { name: 'Express', carrier: '', minDeliveryDays: '', maxDeliveryDays: '', position: '0', freeAbove: '', active: 'on' };
    const words = await submit(zonePath, `${zonePath}/methods`, { ...base, rateType: 'weight', bands: '1 4.99\nheavy 9' }, session);
    expect(words.res.status).toBe(422);
    expect(errorOf(words.html, 'bands')).toMatch(/^line 2 \(&quot;heavy 9&quot;\) must be two numbers/);
    expect(words.html).toContain('1 4.99\nheavy 9');
    const descending = await submit(zonePath, `${zonePath}/methods`, { ...base, rateType: 'price', bands: '50 0\n10 4.99' }, session);
    expect(descending.res.status).toBe(422);
    expect(errorOf(descending.html, 'bands')).toMatch(/^line 2: must be above the previous band/);
    const noAmount = await submit(zonePath, `${zonePath}/methods`, { ...base, name: '', rateType: 'flat', amount: '' }, session);
    expect(noAmount.res.status).toBe(422);
    expect(errorOf(noAmount.html, 'name')).toBeTruthy();
    expect(errorOf(noAmount.html, 'amount')).toBeTruthy();
    expect(await methodsOf(id)).toEqual([]);
  });

  it('edits a method into a flat rate and a zone into the rest of the world, then deletes both', async () => {
    const { session } = await signedIn('admin');
    const { id } = await newZone(session);
    const zonePath = `${HOME}/zones/${id}`;
    await submit(zonePath, `${zonePath}/methods`, { name: 'Post', position: '0', rateType: 'price', bands: '0 5\n50 0', active: 'on' }, session);
    const [method] = await methodsOf(id);
    const methodPath = `${zonePath}/methods/${method.id}`;
    const saved = await submit(methodPath, methodPath, { name: 'Post flat', position: '2', rateType: 'flat', amount: '3.5', bands: '', freeAbove: '', active: '' }, session);
    expect(saved.res.status, saved.html.slice(0, 500)).toBe(303);
    expect((await methodsOf(id))[0]).toMatchObject({ name: 'Post flat', position: 2, active: false, freeAbove: null, rate: { type: 'flat', amount: 3.5 } });

    // The demo data may already have a rest-of-world zone: the API's 409 shows above the form, nothing changes.
    const world = await submit(zonePath, zonePath, { name: 'Everywhere else', countries: '', regions: '', postcodes: '', restOfWorld: 'on' }, session);
    const allZones = (await api('/api/settings/shipping-zones?limit=100', { key: await adminKey() })).body.data as { id: string; restOfWorld: boolean }[];
    if (allZones.some((z) => z.restOfWorld && z.id !== id)) {
      expect(world.res.status).toBe(409);
      expect((await zoneOf(id)).restOfWorld).toBe(false);
    } else {
      expect(world.res.status).toBe(303);
      expect(await zoneOf(id)).toMatchObject({ restOfWorld: true, countries: [] });
    }

    expect((await submit(methodPath, `${methodPath}/delete`, {}, session)).res.status).toBe(303);
    expect(await methodsOf(id)).toEqual([]);
    expect((await submit(zonePath, `${zonePath}/delete`, {}, session)).res.status).toBe(303);
    expect((await api(`/api/settings/shipping-zones/${id}`, { key: await adminKey() })).status).toBe(404);
  });

  it('shows settings:read the zones without forms or edit links, and refuses its writes (403)', async () => {
    const admin = await signedIn('admin');
    const { id, name } = await newZone(admin.session);
    const reader = await signedIn((await role(['settings:read'])).id);
    const page = await get(HOME, reader.session);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(name);
    expect(page.html).not.toContain(`action="${HOME}/zones"`);
    expect(page.html).not.toContain(`href="${HOME}/zones/${id}"`);
    expect((await get(`${HOME}/zones/${id}`, reader.session)).res.status).toBe(403);
    const denied = await post(`${HOME}/zones/${id}`, { _csrf: reader.csrf, name: 'Renamed', countries: 'FR' }, reader.session);
    expect(denied.res.status).toBe(403);
    expect((await post(`${HOME}/zones`, { _csrf: reader.csrf, name: 'New', countries: 'FR' }, reader.session)).res.status).toBe(403);
    expect((await zoneOf(id)).name).toBe(name);
  });
});

describe('admin products: weight, which shipping by weight reads', () => {
  it("takes a new product's weight for its default variant, and edits and clears a variant's", async () => {
    const { session } = await signedIn('admin');
    const name = `Weighed ${uid()}`;
    const created = await submit('/admin/products/new', '/admin/products/new', { name, price: '12.50', status: 'active', stock: '3', weight: '0.75' }, session);
    expect(created.res.status, created.html.slice(0, 500)).toBe(303);
    const id = /\/admin\/products\/([^/?#]+)$/.exec(created.res.headers.get('Location') ?? '')?.[1];
    const product = (await api(`/api/products/${id}`, { key: await adminKey() })).body.data;
    const variant = product.variants[0];
    expect(variant.weight).toBe(0.75);

    const page = `/admin/products/${id}`;
    expect((await get(page, session)).html).toContain(`name="${variant.id}.weight"`);
    const fields = (weight: string) => ({ variantKey: variant.id, [`${variant.id}.price`]: '12.50', [`${variant.id}.stock`]: '3', [`${variant.id}.weight`]: weight });
    const saved = await submit(page, `${page}/variants/${variant.id}`, fields('2.5'), session);
    expect(saved.res.status, saved.html.slice(0, 500)).toBe(303);
    expect((await api(`/api/products/${id}`, { key: await adminKey() })).body.data.variants[0].weight).toBe(2.5);
    const negative = await submit(page, `${page}/variants/${variant.id}`, fields('-1'), session);
    expect(negative.res.status).toBe(422);
    expect(errorOf(negative.html, `${variant.id}-weight`)).toBeTruthy();
    const cleared = await submit(page, `${page}/variants/${variant.id}`, fields(''), session);
    expect(cleared.res.status).toBe(303);
    expect((await api(`/api/products/${id}`, { key: await adminKey() })).body.data.variants[0].weight).toBeNull();
  });
});

describe('admin orders and carts: the shipping method', () => {
  it('shows the method an order was placed with beside its shipping charge, and the one a cart ships by', async () => {
    const key = await adminKey();
    const zone = (await api('/api/settings/shipping-zones', { method: 'POST', key, json: { name: `Iceland ${uid()}`, countries: ['IS'] } })).body.data;
    const method = `Pósturinn ${uid()}`;
    expect(
      (await api(`/api/settings/shipping-zones/${zone.id}/methods`, { method: 'POST', key, json: { name: method, carrier: 'Posturinn', rate: { type: 'flat', amount: 7.5 } } }))
        .status,
    ).toBe(201);
    const variantId = (await createProduct(key, { price: 10, stock: 50 })).variants[0].id;
    const address = { line1: 'Laugavegur 1', city: 'Reykjavík', postalCode: '101', country: 'IS' };
    const email = `is-${uid()}@example.test`;
    const order = await api('/api/orders', { method: 'POST', key, json: { email, shippingAddress: address, lines: [{ variantId, quantity: 1 }] } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const { session } = await signedIn('admin');
    const page = await get(`/admin/orders/${order.body.data.id}`, session);
    expect(page.html).toContain(`(${method}, Posturinn)`);

    const cart = (await api('/api/carts', { method: 'POST', json: { email } })).body.data;
    const asShopper = { 'X-Cart-Token': cart.token };
    expect((await api(`/api/carts/${cart.id}/lines`, { method: 'POST', headers: asShopper, json: { variantId, quantity: 1 } })).status).toBe(200);
    expect((await api(`/api/carts/${cart.id}`, { method: 'PATCH', headers: asShopper, json: { shippingAddress: address } })).status).toBe(200);
    const carts = await get(`/admin/carts?email=${encodeURIComponent(email)}`, session);
    expect(carts.html).toContain(`cheapest: ${method} 7.50`);
  });
});

describe('delivery days in words', () => {
  it('says what the method says, and no more', () => {
    expect([deliveryDays(1, 3), deliveryDays(2, 2), deliveryDays(1, 1), deliveryDays(null, 1), deliveryDays(2, null), deliveryDays(null, null)]).toEqual([
      '1–3 days',
      '2 days',
      '1 day',
      'up to 1 day',
      'from 2 days',
      '—',
    ]);
  });
});
