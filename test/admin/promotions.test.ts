import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import { getPromotion } from '../../src/modules/promotions/promotions.service';
import { adminKey, api, createCategory, db, insertUser, uid } from '../helpers';
import { call, cartOf, discounts, variantOf } from '../commerce/shopper-cart';
import { errorOf, flashOf, get } from './panel-client';
import { follow, navLinks, postForm, role, signedIn } from './people-client';

/**
 * The panel's promotions (src/admin/routes/promotions.tsx): the examples created through the
 * form, then proved on a shopper's cart through the API (as test/commerce/promotions.apply.test.ts
 * does with promotions created through the API); edit, a refused form, delete, and a read-only user.
 */

let key: string;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  key = await adminKey();
  admin = await signedIn('admin');
  await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92' }).onConflictDoNothing();
});

/** Every text field of the form as a browser posts it, blank; unchecked checkboxes are not posted. */
const BLANK: Record<string, string> = Object.fromEntries(
  [
    ...['name', 'code', 'value', 'description', 'minSubtotal', 'minQuantity', 'startsAt', 'endsAt', 'usageLimit', 'perCustomerLimit', 'priority'],
    ...['buyXGetY.buy.quantity', 'buyXGetY.get.quantity', 'buyXGetY.get.percent'],
    ...['include', 'exclude', 'buyXGetY.buy', 'buyXGetY.get'].map((set) => `${set}.productIds`),
  ].map((name) => [name, '']),
);

/** Posts the promotion form (`to`: the list to create, a promotion's page to save it), chosen checkboxes as repeated names. */
function submitPromotion(fields: Record<string, string | string[]>, to = '/admin/promotions', as = admin) {
  const entries = Object.entries({ target: 'order', ...BLANK, ...fields }).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
  );
  return postForm(to, [['_csrf', as.csrf], ...entries], as.session);
}

async function created(fields: Record<string, string | string[]>) {
  const made = await submitPromotion(fields);
  expect(made.res.status, errorsIn(made.html)).toBe(303);
  const id = /\/admin\/promotions\/([^/?#]+)$/.exec(made.res.headers.get('Location') ?? '')?.[1] ?? '';
  expect(flashOf(made.res)?.text).toContain('created');
  return getPromotion(db(), id);
}

/** A refused form's messages, to say why in a failing assertion. */
const errorsIn = (html: string) => [...html.matchAll(/class="error"[^>]*>([^<]*)</g)].map((m) => m[1]).join('; ') || html.slice(0, 300);

/** The list's row of a promotion, by its link. */
const rowOf = (html: string, id: string) => new RegExp(`<tr><td><a href="/admin/promotions/${id}">[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';

describe('admin promotions: the issue examples, made in the panel, priced on a shopper cart', () => {
  it('10% off everything in Sale, no code: automatic, on the Sale items only; listed as automatic; edited, the list and the cart show the change', async () => {
    const sale = await createCategory(key);
    const dress = await variantOf(key, 49.99, { categoryIds: [sale.id] });
    const scarf = await variantOf(key, 12.5, { categoryIds: [sale.id] });
    const shirt = await variantOf(key, 19.99);
    const name = `Sale ${uid()}`;
    const form = { name, type: 'percentage', value: '10', target: 'items', 'include.categoryIds': [sale.id], active: 'on' };
    const tenOff = await created(form);
    expect(tenOff).toMatchObject({ code: null, type: 'percentage', value: 10, target: 'items', include: { productIds: [], categoryIds: [sale.id], brandIds: [] }, active: true });

    const cart = await cartOf([
      [dress.variantId, 1],
      [scarf.variantId, 1],
      [shirt.variantId, 2],
    ]);
    const shown = await call(cart, '');
    expect(discounts(shown.body)).toEqual([5, 1.25, 0]);
    expect(shown.body.data.lines[0].promotions).toEqual([{ promotionId: tenOff.id, name, amount: 5 }]);

    const list = await get(`/admin/promotions?q=${encodeURIComponent(name)}`, admin.session);
    const row = rowOf(list.html, tenOff.id);
    expect(row).toContain('automatic');
    expect(row).toContain('percentage 10%');
    expect(row).toContain('b-active');

    // The edit page shows what is stored: the category checked.
    const edit = await get(`/admin/promotions/${tenOff.id}`, admin.session);
    expect(edit.html).toMatch(new RegExp(`<input type="checkbox" name="include.categoryIds" value="${sale.id}" checked`));
    const saved = await submitPromotion({ ...form, value: '20', priority: '5' }, `/admin/promotions/${tenOff.id}`);
    expect(saved.res.status, errorsIn(saved.html)).toBe(303);
    const after = rowOf((await get(`/admin/promotions?q=${encodeURIComponent(name)}`, admin.session)).html, tenOff.id);
    expect(after).toContain('percentage 20%');
    expect(after).toContain('<td class="num">5</td>');
    expect(discounts((await call(cart, '')).body)).toEqual([10, 2.5, 0]);
  });

  it('buy 2 socks get the third free: the cheapest pair is free, two pairs get nothing; the edit page shows the typed products', async () => {
    const plain = await variantOf(key, 5);
    const striped = await variantOf(key, 4);
    const bxgy = await created({
      name: `Third pair free ${uid()}`,
      type: 'buy_x_get_y',
      'buyXGetY.buy.quantity': '2',
      'buyXGetY.buy.productIds': `${plain.productId}\n${striped.productId}`,
      'buyXGetY.get.quantity': '1',
      active: 'on',
    });
    expect(bxgy.buyXGetY).toEqual({
      buy: { quantity: 2, productIds: [plain.productId, striped.productId], categoryIds: [], brandIds: [] },
      get: { quantity: 1, percent: 100, productIds: [], categoryIds: [], brandIds: [] },
    });
    const three = await call(
      await cartOf([
        [plain.variantId, 2],
        [striped.variantId, 1],
      ]),
      '',
    );
    expect(discounts(three.body)).toEqual([0, 4]);
    expect(discounts((await call(await cartOf([[plain.variantId, 2]]), '')).body)).toEqual([0]);
    const edit = await get(`/admin/promotions/${bxgy.id}`, admin.session);
    expect(edit.html).toContain(`${plain.productId}\n${striped.productId}</textarea>`);
  });

  it('free shipping over 50 for members, in the zone chosen: a member pays none from 50, others and smaller carts pay it', async () => {
    const zone = (await api('/api/settings/shipping-zones', { method: 'POST', key, json: { name: `Austria ${uid()}`, countries: ['AT'] } })).body.data;
    const method = await api(`/api/settings/shipping-zones/${zone.id}/methods`, { method: 'POST', key, json: { name: 'Post', rate: { type: 'flat', amount: 4.95 } } });
    expect(method.status, JSON.stringify(method.body)).toBe(201);
    const group = (await api('/api/customer-groups', { method: 'POST', key, json: { name: `Members ${uid()}` } })).body.data;
    const [member, member2, other] = [await insertUser(), await insertUser(), await insertUser()];
    const joined = await api(`/api/customer-groups/${group.id}/members`, { method: 'POST', key, json: { customerIds: [member.user.id, member2.user.id] } });
    expect(joined.status).toBe(200);
    // The form offers the group and the zone's method to choose.
    const form = await get('/admin/promotions/new', admin.session);
    expect(form.html).toContain(`value="${group.id}"`);
    expect(form.html).toContain(`${zone.name}: Post`);

    const free = await created({
      name: `Free shipping for members ${uid()}`,
      type: 'free_shipping',
      minSubtotal: '50',
      customerGroupIds: [group.id],
      'freeShipping.zoneIds': [zone.id],
      combinesWithPromotions: 'on',
      active: 'on',
    });
    expect(free).toMatchObject({ minSubtotal: 50, customerGroupIds: [group.id], freeShipping: { methodIds: [], zoneIds: [zone.id] }, value: 0 });
    const coat = await variantOf(key, 60);
    const cap = await variantOf(key, 49.99);
    const vienna = { line1: 'Ring 1', city: 'Wien', country: 'AT' };
    const shippingOf = async (variantId: string, token: string) => {
      const cart = await cartOf([[variantId, 1]], vienna, token);
      return (await call(cart, '', 'GET', undefined, token)).body.data.totals.shippingTotal;
    };
    expect(await shippingOf(coat.variantId, member.token)).toBe(0);
    expect(await shippingOf(coat.variantId, other.token)).toBe(4.95);
    expect(await shippingOf(cap.variantId, member2.token)).toBe(4.95);

    // The member's order: its page names the promotion and what it took off shipping.
    const order = await api('/api/orders', { method: 'POST', key: member.token, json: { lines: [{ variantId: coat.variantId, quantity: 1 }], shippingAddress: vienna } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const page = await get(`/admin/orders/${order.body.data.id}`, admin.session);
    expect(page.html).toMatch(new RegExp(`data-promotion="${free.id}"[^>]*>\\s*<br\\s*/?>\\s*${free.name}: [^<(]*4\\.95[^<(]*\\([^)]*4\\.95[^)]*off shipping\\)`));
  });
});

describe('admin promotions: refused input, delete, who may write', () => {
  it('a percentage of 150: the service refuses it next to the field, the form keeps what was typed, nothing is written', async () => {
    const name = `Too much ${uid()}`;
    const refused = await submitPromotion({ name, type: 'percentage', value: '150', 'include.productIds': 'prod_nope' });
    expect(refused.res.status).toBe(422);
    expect(errorOf(refused.html, 'value')).toContain('at most 100');
    expect(errorOf(refused.html, 'include-productIds')).toContain('prod_nope');
    expect(refused.html).toContain(`value="${name}"`);
    // A fixed promotion's own amount in a currency of the store, as the coupon form's rows: too many decimals, under its row.
    const euros = await submitPromotion({ name, type: 'fixed', value: '3', 'value.EUR': '2.345', 'minSubtotal.EUR': '' });
    expect(euros.res.status).toBe(422);
    expect(errorOf(euros.html, 'value-EUR')).toBeTruthy();
    const listed = await api(`/api/promotions?q=${encodeURIComponent(name)}`, { key });
    expect(listed.body.pagination.total).toBe(0);
  });

  it('deletes a promotion after confirming: gone from the panel and the API', async () => {
    const gone = await created({ name: `Short-lived ${uid()}`, type: 'fixed', value: '3', 'value.EUR': '2.5', 'minSubtotal.EUR': '20', active: 'on' });
    expect(gone.currencyAmounts).toEqual([{ currency: 'EUR', value: 2.5, minSubtotal: 20 }]);
    const list = await get('/admin/promotions', admin.session);
    expect(rowOf(list.html, gone.id)).toContain(`data-confirm="Delete the promotion “${gone.name}”?`);
    const deleted = await postForm(`/admin/promotions/${gone.id}/delete`, [['_csrf', admin.csrf]], admin.session);
    expect(deleted.res.status).toBe(303);
    expect((await follow(deleted.res, admin.session)).html).toContain('Promotion deleted.');
    expect((await get(`/admin/promotions/${gone.id}`, admin.session)).res.status).toBe(404);
    expect((await api(`/api/promotions/${gone.id}`, { key })).status).toBe(404);
  });

  it('lists a coupon marked as one, linking to its coupon page, without Delete; its promotion page sends there', async () => {
    const coupon = (await api('/api/coupons', { method: 'POST', key, json: { code: `PANEL${uid()}`, type: 'percentage', value: 5 } })).body.data;
    const html = (await get(`/admin/promotions?q=${coupon.code}`, admin.session)).html;
    const row = new RegExp(`<tr><td><a href="/admin/coupons/${coupon.id}">[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
    expect(row).toContain(`href="/admin/coupons/${coupon.id}"`);
    expect(row).toContain('(coupon)');
    expect(row).not.toContain('Delete');
    const page = await get(`/admin/promotions/${coupon.id}`, admin.session);
    expect(page.res.status).toBe(303);
    expect(page.res.headers.get('Location')).toBe(`/admin/coupons/${coupon.id}`);
  });

  it('a user with promotions:read sees Promotions next to Coupons, the list and a promotion, but may not create, save or delete', async () => {
    const kept = await created({ name: `Kept ${uid()}`, type: 'percentage', value: '5', active: 'on' });
    const reader = await signedIn((await role(['coupons:read', 'promotions:read'])).id);
    const nav = navLinks((await get('/admin', reader.session)).html);
    expect(nav.slice(nav.indexOf('/admin/coupons'), nav.indexOf('/admin/coupons') + 2)).toEqual(['/admin/coupons', '/admin/promotions']);
    const list = await get('/admin/promotions', reader.session);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(kept.name);
    expect(list.html).not.toContain('New promotion');
    expect(list.html).not.toContain(`/admin/promotions/${kept.id}/delete`);
    const one = await get(`/admin/promotions/${kept.id}`, reader.session);
    expect(one.res.status).toBe(200);
    expect(one.html).not.toContain('Save promotion');
    expect((await get('/admin/promotions/new', reader.session)).res.status).toBe(403);

    expect((await submitPromotion({ name: `Not mine ${uid()}`, type: 'percentage', value: '5' }, '/admin/promotions', reader)).res.status).toBe(403);
    expect((await submitPromotion({ name: 'Renamed', type: 'percentage', value: '50' }, `/admin/promotions/${kept.id}`, reader)).res.status).toBe(403);
    expect((await postForm(`/admin/promotions/${kept.id}/delete`, [['_csrf', reader.csrf]], reader.session)).res.status).toBe(403);
    expect(await getPromotion(db(), kept.id)).toMatchObject({ name: kept.name, value: 5 });
  });
});
