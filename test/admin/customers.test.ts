import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, orders, users } from '../../src/db/schema';
import { createAddress, listAddresses } from '../../src/modules/customers/addresses.service';
import { createCustomer, getCustomer } from '../../src/modules/customers/customers.service';
import { db, uid } from '../helpers';
import { cookieIn, get, post } from './panel-client';
import { follow, role, signedIn } from './people-client';

/** The flash message a redirect leaves for the next page. */
const flashOf = (res: Response) => {
  const raw = cookieIn(res, 'admin_flash')?.split(';')[0]?.split('=').slice(1).join('=');
  return raw ? (JSON.parse(decodeURIComponent(decodeURIComponent(raw))) as { kind: string; text: string }) : null;
};
const errorOf = (html: string, field: string) => new RegExp(`id="f-${field}-error">([^<]*)<`).exec(html)?.[1];
const idOf = (res: Response) => /\/admin\/customers\/([^/?#]+)$/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';

const customer = (over: Record<string, unknown> = {}) => createCustomer(db(), { email: `c-${uid()}@example.com`, name: `Customer ${uid()}`, ...over });

describe('admin customers: create, edit, delete', () => {
  it('creates a customer with the API body (and its event), shows it, and refuses bad input next to the fields', async () => {
    const admin = await signedIn('admin');
    const list = await get('/admin/customers', admin.session);
    expect(list.html).toContain('New customer');
    const email = `new-${uid()}@example.com`;

    const made = await post(
      '/admin/customers',
      { _csrf: admin.csrf, email, name: 'Ada Lovelace', phone: '+14155550100', password: 'correct horse battery', status: 'active', smsOptOut: 'on' },
      admin.session,
    );
    expect(made.res.status).toBe(303);
    const id = idOf(made.res);
    expect(flashOf(made.res)?.text).toContain(email);
    const stored = await getCustomer(db(), id);
    expect(stored).toMatchObject({ email, name: 'Ada Lovelace', phone: '+14155550100', status: 'active', smsOptOut: true, marketingEmailOptOut: false });
    const registered = await db().select().from(events).where(eq(events.type, 'customer.registered'));
    expect(registered.some((e) => JSON.stringify(e.data).includes(id))).toBe(true);
    const detail = await follow(made.res, admin.session);
    expect(detail.html).toContain('Ada Lovelace');
    expect(detail.html).toContain('Edit customer');

    // A bad email and phone: 422, the API's messages next to the fields, the form refilled (not the password).
    const bad = await post('/admin/customers', { _csrf: admin.csrf, email: 'not-an-email', name: 'Bad Input', phone: '12', password: 'secret-typed' }, admin.session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'email')).toBeTruthy();
    expect(errorOf(bad.html, 'phone')).toBeTruthy();
    expect(bad.html).toContain('value="Bad Input"');
    expect(bad.html).not.toContain('secret-typed');

    // The same email again: the API's 409, next to the email field.
    const again = await post('/admin/customers', { _csrf: admin.csrf, email: email.toUpperCase() }, admin.session);
    expect(again.res.status).toBe(409);
    expect(errorOf(again.html, 'email')).toBeTruthy();
  });

  it('edits a customer as staff: name, phone, status and a new email, with errors next to the fields', async () => {
    const admin = await signedIn('admin');
    const c = await customer({ phone: '+14155550100' });
    const other = await customer();
    const base = `/admin/customers/${c.id}`;
    const page = await get(base, admin.session);
    expect(page.html).toContain(`value="${c.email}"`);

    const newEmail = `renamed-${uid()}@example.com`;
    const saved = await post(base, { _csrf: admin.csrf, name: 'Grace Hopper', email: newEmail, phone: '', status: 'disabled', smsOptOut: 'on' }, admin.session);
    expect(saved.res.status).toBe(303);
    expect(flashOf(saved.res)?.text).toMatch(/signed out everywhere/);
    expect(await getCustomer(db(), c.id)).toMatchObject({ name: 'Grace Hopper', email: newEmail, phone: null, status: 'disabled', smsOptOut: true, marketingEmailOptOut: false });

    const bad = await post(base, { _csrf: admin.csrf, name: 'Still Grace', email: newEmail, phone: 'call me', status: 'active' }, admin.session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'phone')).toBeTruthy();
    expect(bad.html).toContain('value="Still Grace"');
    expect(bad.html).toContain('value="call me"');

    const blankEmail = await post(base, { _csrf: admin.csrf, name: 'x', email: '', status: 'active' }, admin.session);
    expect(blankEmail.res.status).toBe(422);
    expect(errorOf(blankEmail.html, 'email')).toBeTruthy();

    const taken = await post(base, { _csrf: admin.csrf, name: 'x', email: other.email, status: 'active' }, admin.session);
    expect(taken.res.status).toBe(409);
    expect(errorOf(taken.html, 'email')).toBeTruthy();
    expect((await getCustomer(db(), c.id)).name).toBe('Grace Hopper');

    const unknown = await post('/admin/customers/usr_nope', { _csrf: admin.csrf, name: 'x', email: 'x@example.com' }, admin.session);
    expect(unknown.res.status).toBe(404);
  });

  it('deletes a customer, and shows the API refusal (409) as a flash when orders keep it', async () => {
    const admin = await signedIn('admin');
    const c = await customer();
    await createAddress(db(), c.id, { line1: '1 Main St', city: 'Springfield', country: 'US' });
    const gone = await post(`/admin/customers/${c.id}/delete`, { _csrf: admin.csrf }, admin.session);
    expect(gone.res.status).toBe(303);
    expect(gone.res.headers.get('Location')).toBe('/admin/customers');
    expect(flashOf(gone.res)?.text).toBe('Customer deleted.');
    expect(await db().select().from(users).where(eq(users.id, c.id))).toHaveLength(0);

    const kept = await customer();
    await db()
      .insert(orders)
      .values({ id: `ord_${uid()}`, customerId: kept.id, email: kept.email, currency: 'USD', minorUnits: 2, subtotal: 0, total: 0 });
    const refused = await post(`/admin/customers/${kept.id}/delete`, { _csrf: admin.csrf }, admin.session);
    expect(refused.res.status).toBe(303);
    expect(refused.res.headers.get('Location')).toBe(`/admin/customers/${kept.id}`);
    expect(flashOf(refused.res)).toMatchObject({ kind: 'error', text: expect.stringMatching(/disable it instead/) });
    expect((await getCustomer(db(), kept.id)).id).toBe(kept.id);
  });

  it('a user with customers:read only sees no forms and gets 403 on every POST', async () => {
    const reader = await role(['customers:read']);
    const staff = await signedIn(reader.id);
    const c = await customer();
    const address = await createAddress(db(), c.id, { line1: '1 Main St', city: 'Springfield', country: 'US' });
    const list = await get('/admin/customers', staff.session);
    expect(list.res.status).toBe(200);
    expect(list.html).not.toContain('New customer');
    const detail = await get(`/admin/customers/${c.id}`, staff.session);
    expect(detail.res.status).toBe(200);
    expect(detail.html).not.toContain('Edit customer');
    expect(detail.html).not.toContain('Add an address');
    expect(detail.html).not.toContain('Delete customer');
    expect(detail.html).toContain('1 Main St');

    const base = `/admin/customers/${c.id}`;
    for (const [path, form] of [
      ['/admin/customers', { email: `x-${uid()}@example.com` }],
      [base, { name: 'Hacked', email: c.email }],
      [`${base}/delete`, {}],
      [`${base}/addresses`, { line1: '2 Side St', city: 'Springfield', country: 'US' }],
      [`${base}/addresses/${address.id}`, { line1: '3 Side St', city: 'Springfield', country: 'US' }],
      [`${base}/addresses/${address.id}/default`, { kind: 'shipping' }],
      [`${base}/addresses/${address.id}/delete`, {}],
    ] as const) {
      const res = await post(path, { _csrf: staff.csrf, ...form }, staff.session);
      expect(res.res.status, path).toBe(403);
    }
    expect(await getCustomer(db(), c.id)).toMatchObject({ name: c.name });
    expect(await listAddresses(db(), c.id)).toMatchObject([{ line1: '1 Main St', isDefaultShipping: false }]);

    // Without customers:read, the pages are refused as the API list is.
    const none = await signedIn((await role(['orders:read'])).id);
    expect((await get('/admin/customers', none.session)).res.status).toBe(403);
  });
});

describe('admin customers: addresses', () => {
  it('adds, edits, sets defaults and deletes addresses, with the API body and its errors', async () => {
    const admin = await signedIn('admin');
    const c = await customer();
    const base = `/admin/customers/${c.id}`;
    const detail = await get(base, admin.session);
    expect(detail.html).toContain('Add an address');
    expect(detail.html).toContain('No addresses.');

    const first = await post(
      `${base}/addresses`,
      { _csrf: admin.csrf, firstName: 'Ada', lastName: 'L', line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US', isDefaultShipping: 'on' },
      admin.session,
    );
    expect(first.res.status).toBe(303);
    expect(flashOf(first.res)?.text).toBe('Address added.');
    const second = await post(`${base}/addresses`, { _csrf: admin.csrf, line1: '2 Side St', city: 'Shelbyville', country: 'GB', isDefaultBilling: 'on' }, admin.session);
    expect(second.res.status).toBe(303);
    let [a, b] = await listAddresses(db(), c.id);
    expect(a).toMatchObject({ firstName: 'Ada', line1: '1 Main St', postalCode: '12345', country: 'US', isDefaultShipping: true, isDefaultBilling: false, company: null });
    expect(b).toMatchObject({ line1: '2 Side St', country: 'GB', isDefaultShipping: false, isDefaultBilling: true });
    const page = (await get(base, admin.session)).html;
    expect(page).toContain('1 Main St');
    expect(page).toContain(`${base}/addresses/${a!.id}`);

    // Bad input: 422 next to the fields, the form refilled.
    const bad = await post(`${base}/addresses`, { _csrf: admin.csrf, firstName: 'Refill Me', line1: '', city: 'X', country: 'ZZ' }, admin.session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'line1')).toBeTruthy();
    expect(errorOf(bad.html, 'country')).toMatch(/ISO 3166-1/);
    expect(bad.html).toContain('value="Refill Me"');

    // Default shipping moves to the second one in the same write.
    const moved = await post(`${base}/addresses/${b!.id}/default`, { _csrf: admin.csrf, kind: 'shipping' }, admin.session);
    expect(moved.res.status).toBe(303);
    expect(flashOf(moved.res)?.text).toBe('Default shipping address set.');
    [a, b] = await listAddresses(db(), c.id);
    expect(a!.isDefaultShipping).toBe(false);
    expect(b).toMatchObject({ isDefaultShipping: true, isDefaultBilling: true });
    const billing = await post(`${base}/addresses/${a!.id}/default`, { _csrf: admin.csrf, kind: 'billing' }, admin.session);
    expect(billing.res.status).toBe(303);
    [a, b] = await listAddresses(db(), c.id);
    expect(a!.isDefaultBilling).toBe(true);
    expect(b!.isDefaultBilling).toBe(false);

    // Edit page: prefilled; saving clears blank optional fields (null), as a PATCH with null does.
    const edit = await get(`${base}/addresses/${a!.id}`, admin.session);
    expect(edit.res.status).toBe(200);
    expect(edit.html).toContain('value="1 Main St"');
    const saved = await post(
      `${base}/addresses/${a!.id}`,
      { _csrf: admin.csrf, firstName: 'Ada', lastName: '', line1: '10 Main St', city: 'Springfield', postalCode: '', country: 'US', isDefaultBilling: 'on' },
      admin.session,
    );
    expect(saved.res.status).toBe(303);
    [a] = await listAddresses(db(), c.id);
    expect(a).toMatchObject({ line1: '10 Main St', lastName: null, postalCode: null, isDefaultBilling: true, isDefaultShipping: false });
    const badEdit = await post(`${base}/addresses/${a!.id}`, { _csrf: admin.csrf, firstName: 'Kept', line1: '10 Main St', city: '', country: 'us' }, admin.session);
    expect(badEdit.res.status).toBe(422);
    expect(errorOf(badEdit.html, 'city')).toBeTruthy();
    expect(errorOf(badEdit.html, 'country')).toBeTruthy();
    expect(badEdit.html).toContain('value="Kept"');

    // Another customer's address, or an unknown one: 404, as in the API.
    const stranger = await customer();
    expect((await get(`/admin/customers/${stranger.id}/addresses/${a!.id}`, admin.session)).res.status).toBe(404);
    expect((await post(`/admin/customers/${stranger.id}/addresses/${a!.id}/delete`, { _csrf: admin.csrf }, admin.session)).res.status).toBe(404);

    const deleted = await post(`${base}/addresses/${b!.id}/delete`, { _csrf: admin.csrf }, admin.session);
    expect(deleted.res.status).toBe(303);
    expect(flashOf(deleted.res)?.text).toBe('Address deleted.');
    expect((await listAddresses(db(), c.id)).map((x) => x.id)).toEqual([a!.id]);
  });
});
