import { describe, expect, it } from 'vitest';
import { createCustomerGroup, getCustomerGroup } from '../../src/modules/customer-groups/customer-groups.service';
import { createCustomer, getCustomer } from '../../src/modules/customers/customers.service';
import { getPriceList } from '../../src/modules/price-lists/price-lists.service';
import { adminKey, createProduct, db, uid } from '../helpers';
import { errorOf, flashOf, get, post } from './panel-client';
import { follow, role, signedIn } from './people-client';

const locationId = (res: Response, path: string) => new RegExp(`/admin/${path}/([^/?#]+)$`).exec(res.headers.get('Location') ?? '')?.[1] ?? '';

describe('admin customer groups', () => {
  it('creates a group, adds a customer from its page and from the group, lists and removes members', async () => {
    const admin = await signedIn('admin');
    const name = `Wholesale ${uid()}`;
    const made = await post('/admin/customer-groups', { _csrf: admin.csrf, name, description: 'Trade' }, admin.session);
    expect(made.res.status).toBe(303);
    const groupId = locationId(made.res, 'customer-groups');
    expect((await follow(made.res, admin.session)).html).toContain('No customers in this group.');
    // A duplicate name: the API's 409 next to the field.
    const again = await post('/admin/customer-groups', { _csrf: admin.csrf, name }, admin.session);
    expect(again.res.status).toBe(409);
    expect(errorOf(again.html, 'name')).toBeTruthy();

    const ada = await createCustomer(db(), { email: `ada-${uid()}@example.com`, name: 'Ada' });
    const customerPage = await get(`/admin/customers/${ada.id}`, admin.session);
    expect(customerPage.html).toContain('In no group.');
    const joined = await post(`/admin/customers/${ada.id}/groups`, { _csrf: admin.csrf, groupId }, admin.session);
    expect(flashOf(joined.res)?.text).toContain(name);
    expect((await getCustomer(db(), ada.id)).groupIds).toEqual([groupId]);
    expect((await get(`/admin/customers/${ada.id}`, admin.session)).html).toContain(`href="/admin/customer-groups/${groupId}"`);

    const grace = await createCustomer(db(), { email: `grace-${uid()}@example.com`, name: 'Grace' });
    const bad = await post(`/admin/customer-groups/${groupId}/members`, { _csrf: admin.csrf, customerIds: `${grace.id}, user_nope` }, admin.session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'customerIds')).toContain('user_nope');
    const added = await post(`/admin/customer-groups/${groupId}/members`, { _csrf: admin.csrf, customerIds: grace.id }, admin.session);
    expect(added.res.status).toBe(303);
    const groupPage = await get(`/admin/customer-groups/${groupId}`, admin.session);
    expect(groupPage.html).toContain('Ada');
    expect(groupPage.html).toContain('Grace');
    expect((await getCustomerGroup(db(), groupId)).memberCount).toBe(2);

    const removed = await post(`/admin/customer-groups/${groupId}/members/${grace.id}/delete`, { _csrf: admin.csrf }, admin.session);
    expect(removed.res.status).toBe(303);
    expect((await getCustomer(db(), grace.id)).groupIds).toEqual([]);
    await post(`/admin/customers/${ada.id}/groups/${groupId}/delete`, { _csrf: admin.csrf }, admin.session);
    expect((await getCustomer(db(), ada.id)).groupIds).toEqual([]);
  });

  it('shows the nav items to those who may read them', async () => {
    const reader = await signedIn((await role(['customers:read'])).id);
    const nav = (await get('/admin', reader.session)).html;
    expect(nav).toContain('href="/admin/customer-groups"');
    expect(nav).not.toContain('href="/admin/price-lists"');
    const groups = await get('/admin/customer-groups', reader.session);
    expect(groups.res.status).toBe(200);
    expect(groups.html).not.toContain('New customer group');
  });
});

describe('admin price lists', () => {
  it('creates a list from typed price lines, names a bad line, edits and deletes it', async () => {
    const admin = await signedIn('admin');
    const group = await createCustomerGroup(db(), { name: `Trade ${uid()}` });
    const product = await createProduct(await adminKey(), { price: 10 });
    const variantId = product.variants[0].id;
    const list = await get('/admin/price-lists', admin.session);
    expect(list.html).toContain('New price list');
    expect(list.html).toContain(group.name);

    const bad = await post(
      '/admin/price-lists',
      { _csrf: admin.csrf, name: 'Trade USD', customerGroupId: group.id, currency: 'USD', status: 'active', prices: `${variantId} 9\n${variantId} nine 10` },
      admin.session,
    );
    expect(bad.res.status).toBe(422);
    expect(bad.html).toContain('prices.1.amount');
    expect(bad.html).toContain('value="Trade USD"');

    const made = await post(
      '/admin/price-lists',
      {
        _csrf: admin.csrf,
        name: 'Trade USD',
        customerGroupId: group.id,
        currency: 'USD',
        status: 'active',
        startsAt: '2026-01-01T00:00',
        prices: `${variantId} 9\n${variantId} 8.50 10`,
      },
      admin.session,
    );
    expect(made.res.status, made.html).toBe(303);
    const id = locationId(made.res, 'price-lists');
    expect(await getPriceList(db(), id)).toMatchObject({
      customerGroupId: group.id,
      currency: 'USD',
      status: 'active',
      startsAt: '2026-01-01T00:00:00.000Z',
      prices: [
        { variantId, minQuantity: 1, amount: 9 },
        { variantId, minQuantity: 10, amount: 8.5 },
      ],
    });
    const edit = await follow(made.res, admin.session);
    expect(edit.html).toContain(`${variantId} 8.5 10`);

    const saved = await post(`/admin/price-lists/${id}`, { _csrf: admin.csrf, name: 'Trade USD', customerGroupId: '', status: 'draft', prices: `${variantId} 7` }, admin.session);
    expect(saved.res.status).toBe(303);
    expect(await getPriceList(db(), id)).toMatchObject({ customerGroupId: null, status: 'draft', startsAt: null, prices: [{ variantId, minQuantity: 1, amount: 7 }] });

    expect((await post(`/admin/price-lists/${id}/delete`, { _csrf: admin.csrf }, admin.session)).res.status).toBe(303);
    expect((await get(`/admin/price-lists/${id}`, admin.session)).res.status).toBe(404);
  });
});
