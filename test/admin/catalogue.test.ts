import { describe, expect, it } from 'vitest';
import { createBrand, getBrand } from '../../src/modules/brands/brands.service';
import { createCategory, getCategory } from '../../src/modules/categories/categories.service';
import { getProduct } from '../../src/modules/products/products.read';
import { createProduct } from '../../src/modules/products/products.service';
import { createUser } from '../../src/modules/users/users.service';
import { createVendor, getVendor } from '../../src/modules/vendors/vendors.service';
import { db, uid } from '../helpers';
import { cookieIn, csrfIn, get, post, signIn } from './panel-client';

async function staff(roleId: string, vendorId: string | null = null) {
  const email = `${roleId}-${uid()}@example.com`;
  const password = 'correct horse battery';
  await createUser(db(), { email, password, roleId, vendorId });
  return (await signIn(email, password)).session;
}

/** A signed-in session and its CSRF token, read from `path`. */
async function as(roleId: string, path: string, vendorId: string | null = null) {
  const session = await staff(roleId, vendorId);
  const page = await get(path, session);
  return { session, token: csrfIn(page.html), page };
}

/** The flash message a redirect leaves for the next page. */
const flashOf = (res: Response) => {
  const raw = cookieIn(res, 'admin_flash')?.split(';')[0]?.split('=').slice(1).join('=');
  return raw ? (JSON.parse(decodeURIComponent(decodeURIComponent(raw))) as { kind: string; text: string }) : null;
};

const errorOf = (html: string, field: string) => new RegExp(`id="f-${field}-error">([^<]*)<`).exec(html)?.[1];

describe('admin catalogue: categories', () => {
  it('creates categories as a tree, moves one under another parent and refuses a cycle next to the field', async () => {
    const { session, token, page } = await as('admin', '/admin/categories');
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('<h1>Categories</h1>');
    const tag = uid();

    const create = async (name: string, parentId = '') => {
      const { res } = await post('/admin/categories', { _csrf: token, name, parentId, position: '0' }, session);
      expect(res.status).toBe(303);
      expect(flashOf(res)?.text).toContain(name);
    };
    await create(`Home ${tag}`);
    await create(`Garden ${tag}`);
    const home = await getCategory(db(), `home-${tag}`);
    const garden = await getCategory(db(), `garden-${tag}`);
    await create(`Kitchen ${tag}`, home.id);
    const kitchen = await getCategory(db(), `kitchen-${tag}`);
    expect(kitchen.parentId).toBe(home.id);

    // The tree: Kitchen right under Home, indented.
    const tree = (await get('/admin/categories', session)).html;
    const at = (slug: string) => tree.indexOf(`data-category="${slug}"`);
    expect(at(`home-${tag}`)).toBeGreaterThan(-1);
    expect(at(`kitchen-${tag}`)).toBeGreaterThan(at(`home-${tag}`));
    expect(tree).toMatch(new RegExp(`└\\u00a0</span><span class="sr-only">Level 2: </span><a href="/admin/categories/${kitchen.id}">Kitchen ${tag}<`));

    // Moved under Garden.
    const moved = await post(`/admin/categories/${kitchen.id}`, { _csrf: token, name: `Kitchen ${tag}`, slug: kitchen.slug, parentId: garden.id, position: '0' }, session);
    expect(moved.res.status).toBe(303);
    expect((await getCategory(db(), kitchen.id)).parentId).toBe(garden.id);

    // Garden under its own child: the service's refusal, next to the parent select, the form refilled.
    const cycle = await post(`/admin/categories/${garden.id}`, { _csrf: token, name: `Garden renamed ${tag}`, slug: garden.slug, parentId: kitchen.id, position: '0' }, session);
    expect(cycle.res.status).toBe(422);
    expect(errorOf(cycle.html, 'parentId')).toMatch(/cannot be moved under itself or its descendants/);
    expect(cycle.html).toContain(`value="Garden renamed ${tag}"`);
    expect((await getCategory(db(), garden.id)).parentId).toBeNull();
    expect((await getCategory(db(), garden.id)).name).toBe(`Garden ${tag}`);

    // Itself as parent is refused too (a forged form: the select leaves itself out).
    const self = await post(`/admin/categories/${garden.id}`, { _csrf: token, name: `Garden ${tag}`, parentId: garden.id }, session);
    expect(self.res.status).toBe(422);

    // Renamed, description cleared, back to the top level.
    const renamed = await post(`/admin/categories/${kitchen.id}`, { _csrf: token, name: `Cooking ${tag}`, parentId: '', description: '' }, session);
    expect(renamed.res.status).toBe(303);
    const after = await getCategory(db(), kitchen.id);
    expect(after).toMatchObject({ name: `Cooking ${tag}`, parentId: null, description: null, slug: kitchen.slug });
  });

  it('shows validation errors next to the fields with status 422', async () => {
    const { session, token } = await as('admin', '/admin/categories');
    const blank = await post('/admin/categories', { _csrf: token, name: '', slug: 'Not A Slug', position: '-1' }, session);
    expect(blank.res.status).toBe(422);
    expect(errorOf(blank.html, 'name')).toBeTruthy();
    expect(errorOf(blank.html, 'slug')).toBeTruthy();
    expect(errorOf(blank.html, 'position')).toBeTruthy();
    expect(blank.html).toContain('value="Not A Slug"');

    const unknownParent = await post('/admin/categories', { _csrf: token, name: `Orphan ${uid()}`, parentId: 'cat_nope' }, session);
    expect(unknownParent.res.status).toBe(422);
    expect(errorOf(unknownParent.html, 'parentId')).toContain('no category &#39;cat_nope&#39;');

    const taken = await createCategory(db(), { name: `Taken ${uid()}` });
    const duplicate = await post('/admin/categories', { _csrf: token, name: 'Another', slug: taken.slug }, session);
    expect(duplicate.res.status).toBe(409);
    expect(errorOf(duplicate.html, 'slug')).toBeTruthy();
  });

  it('reorders siblings with up and down', async () => {
    const { session, token } = await as('admin', '/admin/categories');
    const parent = await createCategory(db(), { name: `Parent ${uid()}` });
    const a = await createCategory(db(), { name: 'A first', parentId: parent.id });
    const b = await createCategory(db(), { name: 'B second', parentId: parent.id });
    const c = await createCategory(db(), { name: 'C third', parentId: parent.id });

    const up = await post(`/admin/categories/${c.id}/move`, { _csrf: token, direction: 'up' }, session);
    expect(up.res.status).toBe(303);
    const positions = async () => Promise.all([a, b, c].map(async (x) => (await getCategory(db(), x.id)).position));
    expect(await positions()).toEqual([0, 2, 1]);

    await post(`/admin/categories/${a.id}/move`, { _csrf: token, direction: 'down' }, session);
    expect(await positions()).toEqual([1, 2, 0]);

    const first = await post(`/admin/categories/${c.id}/move`, { _csrf: token, direction: 'up' }, session);
    expect(flashOf(first.res)?.text).toContain('already first');
    expect(await positions()).toEqual([1, 2, 0]);

    expect((await post(`/admin/categories/${c.id}/move`, { _csrf: token, direction: 'sideways' }, session)).res.status).toBe(400);

    // The sort order field sets it directly.
    const set = await post(`/admin/categories/${c.id}`, { _csrf: token, name: 'C third', parentId: parent.id, position: '7' }, session);
    expect(set.res.status).toBe(303);
    expect((await getCategory(db(), c.id)).position).toBe(7);
  });

  it('deletes an empty category, and shows the 409 of one with sub-categories as a flash error', async () => {
    const { session, token } = await as('admin', '/admin/categories');
    const parent = await createCategory(db(), { name: `Full ${uid()}` });
    const child = await createCategory(db(), { name: `Leaf ${uid()}`, parentId: parent.id });

    const refused = await post(`/admin/categories/${parent.id}/delete`, { _csrf: token }, session);
    expect(refused.res.status).toBe(303);
    expect(refused.res.headers.get('Location')).toBe('/admin/categories');
    expect(flashOf(refused.res)).toEqual({ kind: 'error', text: 'This category has sub-categories: move or delete them first' });
    expect((await getCategory(db(), parent.id)).id).toBe(parent.id);

    const gone = await post(`/admin/categories/${child.id}/delete`, { _csrf: token }, session);
    expect(flashOf(gone.res)?.kind).toBe('ok');
    await expect(getCategory(db(), child.id)).rejects.toThrow();
    expect((await post(`/admin/categories/${parent.id}/delete`, { _csrf: token }, session)).res.status).toBe(303);
    await expect(getCategory(db(), parent.id)).rejects.toThrow();
    expect((await get(`/admin/categories/${parent.id}`, session)).res.status).toBe(404);
  });

  it('is for users holding categories:write: others get 403 and no link', async () => {
    const vendor = await createVendor(db(), { name: `V ${uid()}` });
    const { session, token, page } = await as('vendor', '/admin/products', vendor.id);
    expect(page.html).not.toContain('href="/admin/categories"');
    expect((await get('/admin/categories', session)).res.status).toBe(403);
    const existing = await createCategory(db(), { name: `Kept ${uid()}` });
    expect((await get(`/admin/categories/${existing.id}`, session)).res.status).toBe(403);
    expect((await post('/admin/categories', { _csrf: token, name: 'Sneaky' }, session)).res.status).toBe(403);
    expect((await post(`/admin/categories/${existing.id}/delete`, { _csrf: token }, session)).res.status).toBe(403);
    expect((await post(`/admin/categories/${existing.id}/move`, { _csrf: token, direction: 'up' }, session)).res.status).toBe(403);
    expect((await getCategory(db(), existing.id)).name).toBe(existing.name);

    const admin = await as('admin', '/admin');
    expect(admin.page.html).toContain('href="/admin/categories"');
  });
});

describe('admin catalogue: brands', () => {
  it('lists with search and pages, creates, edits and deletes a brand', async () => {
    const { session, token, page } = await as('admin', '/admin/brands');
    expect(page.res.status).toBe(200);
    const tag = uid();
    const created = await post('/admin/brands', { _csrf: token, name: `Acme ${tag}`, description: 'Anvils', logoUrl: '' }, session);
    expect(created.res.status).toBe(303);
    const brand = await getBrand(db(), `acme-${tag}`);
    expect(brand).toMatchObject({ description: 'Anvils', logoUrl: null });

    const found = await get(`/admin/brands?q=${tag}`, session);
    expect(found.html).toContain(`Acme ${tag}`);
    expect(found.html).toContain('1 in all');
    expect((await get('/admin/brands?q=zzz-no-such-brand', session)).html).toContain('No brands match.');

    const edit = await get(`/admin/brands/${brand.id}`, session);
    expect(edit.html).toContain(`value="Acme ${tag}"`);
    const saved = await post(
      `/admin/brands/${brand.id}`,
      { _csrf: token, name: `Acme Corp ${tag}`, slug: brand.slug, description: '', logoUrl: 'https://example.com/logo.png' },
      session,
    );
    expect(saved.res.status).toBe(303);
    expect(await getBrand(db(), brand.id)).toMatchObject({ name: `Acme Corp ${tag}`, description: null, logoUrl: 'https://example.com/logo.png' });

    const bad = await post(`/admin/brands/${brand.id}`, { _csrf: token, name: 'Renamed', logoUrl: 'ftp://example.com/x' }, session);
    expect(bad.res.status).toBe(422);
    expect(bad.html).toContain('value="Renamed"');
    expect(errorOf(bad.html, 'logoUrl')).toBeTruthy();

    // A product given the brand in the panel's product form.
    const product = await createProduct(db(), { name: `Anvil ${tag}`, price: 99 });
    const form = await get(`/admin/products/${product.id}`, session);
    expect(form.html).toContain(`<option value="${brand.id}">Acme Corp ${tag}</option>`);
    const branded = await post(`/admin/products/${product.id}`, { _csrf: token, name: product.name, price: '99', status: 'draft', brandId: brand.id }, session);
    expect(branded.res.status).toBe(303);
    expect((await getProduct(db(), product.id, { staff: true, vendorId: null })).brand?.id).toBe(brand.id);

    const deleted = await post(`/admin/brands/${brand.id}/delete`, { _csrf: token }, session);
    expect(deleted.res.status).toBe(303);
    await expect(getBrand(db(), brand.id)).rejects.toThrow();
    expect((await getProduct(db(), product.id, { staff: true, vendorId: null })).brand).toBeNull();
  });

  it('pages through many brands', async () => {
    const { session } = await as('admin', '/admin/brands');
    const tag = uid();
    for (let i = 0; i < 22; i++) await createBrand(db(), { name: `Paged ${tag} ${String(i).padStart(2, '0')}` });
    const first = await get(`/admin/brands?q=${tag}`, session);
    expect(first.html).toContain('Page 1 of 2 · 22 in all');
    expect(first.html).toContain(`Paged ${tag} 19`);
    expect(first.html).not.toContain(`Paged ${tag} 20`);
    const second = await get(`/admin/brands?q=${tag}&page=2`, session);
    expect(second.html).toContain(`Paged ${tag} 21`);
    expect((await get('/admin/brands?limit=1000', session)).res.status).toBe(400);
  });

  it('refuses users without brands:write', async () => {
    const vendor = await createVendor(db(), { name: `V ${uid()}` });
    const { session, token, page } = await as('vendor', '/admin/products', vendor.id);
    expect(page.html).not.toContain('href="/admin/brands"');
    const brand = await createBrand(db(), { name: `Guarded ${uid()}` });
    expect((await get('/admin/brands', session)).res.status).toBe(403);
    expect((await post('/admin/brands', { _csrf: token, name: 'Nope' }, session)).res.status).toBe(403);
    expect((await post(`/admin/brands/${brand.id}`, { _csrf: token, name: 'Nope' }, session)).res.status).toBe(403);
    expect((await post(`/admin/brands/${brand.id}/delete`, { _csrf: token }, session)).res.status).toBe(403);
    expect((await getBrand(db(), brand.id)).name).toBe(brand.name);
  });
});

describe('admin catalogue: vendors', () => {
  it('creates, filters by status, suspends, reactivates, edits and deletes a vendor', async () => {
    const { session, token, page } = await as('admin', '/admin/vendors');
    expect(page.res.status).toBe(200);
    const tag = uid();
    const created = await post('/admin/vendors', { _csrf: token, name: `Maker ${tag}`, email: `maker-${tag}@example.com`, status: 'active' }, session);
    expect(created.res.status).toBe(303);
    const vendor = await getVendor(db(), `maker-${tag}`);
    expect(created.res.headers.get('Location')).toBe(`/admin/vendors/${vendor.id}`);

    const suspended = await post(`/admin/vendors/${vendor.id}/status`, { _csrf: token, status: 'suspended' }, session);
    expect(suspended.res.status).toBe(303);
    expect((await getVendor(db(), vendor.id)).status).toBe('suspended');
    expect((await get(`/admin/vendors?status=suspended&q=${tag}`, session)).html).toContain(`Maker ${tag}`);
    expect((await get(`/admin/vendors?status=active&q=${tag}`, session)).html).toContain('No vendors match.');
    expect((await get(`/admin/vendors/${vendor.id}`, session)).html).toContain('Reactivate');

    await post(`/admin/vendors/${vendor.id}/status`, { _csrf: token, status: 'active' }, session);
    expect((await getVendor(db(), vendor.id)).status).toBe('active');
    expect((await post(`/admin/vendors/${vendor.id}/status`, { _csrf: token, status: 'closed' }, session)).res.status).toBe(422);

    const saved = await post(
      `/admin/vendors/${vendor.id}`,
      { _csrf: token, name: `Maker & Co ${tag}`, slug: vendor.slug, email: '', description: 'Hand made', status: 'active' },
      session,
    );
    expect(saved.res.status).toBe(303);
    expect(await getVendor(db(), vendor.id)).toMatchObject({ name: `Maker & Co ${tag}`, email: null, description: 'Hand made' });

    const bad = await post(`/admin/vendors/${vendor.id}`, { _csrf: token, name: 'X', email: 'not-an-email', status: 'active' }, session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'email')).toBeTruthy();
    expect(bad.html).toContain('value="not-an-email"');

    // A vendor with users is kept: the API's 409, as a flash error.
    await createUser(db(), { email: `seller-${tag}@example.com`, password: 'correct horse battery', roleId: 'vendor', vendorId: vendor.id });
    const refused = await post(`/admin/vendors/${vendor.id}/delete`, { _csrf: token }, session);
    expect(refused.res.status).toBe(303);
    expect(flashOf(refused.res)).toMatchObject({ kind: 'error' });
    expect(flashOf(refused.res)?.text).toMatch(/still has 1 user/);

    const empty = await createVendor(db(), { name: `Empty ${tag}` });
    const gone = await post(`/admin/vendors/${empty.id}/delete`, { _csrf: token }, session);
    expect(gone.res.headers.get('Location')).toBe('/admin/vendors');
    await expect(getVendor(db(), empty.id)).rejects.toThrow();
  });

  it('refuses vendor users, and users without vendors:write cannot change one', async () => {
    const vendor = await createVendor(db(), { name: `Own ${uid()}` });
    const { session, token, page } = await as('vendor', '/admin/products', vendor.id);
    expect(page.html).not.toContain('href="/admin/vendors"');
    expect((await get('/admin/vendors', session)).res.status).toBe(403);
    expect((await get(`/admin/vendors/${vendor.id}`, session)).res.status).toBe(403);
    expect((await post(`/admin/vendors/${vendor.id}/status`, { _csrf: token, status: 'suspended' }, session)).res.status).toBe(403);
    expect((await post(`/admin/vendors/${vendor.id}/delete`, { _csrf: token }, session)).res.status).toBe(403);
    expect((await getVendor(db(), vendor.id)).status).toBe('active');

    const admin = await as('admin', '/admin/vendors');
    const blank = await post('/admin/vendors', { _csrf: admin.token, name: '' }, admin.session);
    expect(blank.res.status).toBe(422);
    expect(errorOf(blank.html, 'name')).toBeTruthy();
  });
});

describe('admin catalogue: inventory', () => {
  it('adjusts a variant below its threshold: low-stock filter, history and the dashboard count', async () => {
    const { session, token } = await as('admin', '/admin/inventory');
    const tag = uid();
    const product = await createProduct(db(), { name: `Lamp ${tag}`, price: 20, stock: 10, lowStockThreshold: 5, sku: `LAMP-${tag}` });
    const variantId = product.variants[0]!.id;

    const list = await get(`/admin/inventory?q=${tag}`, session);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(`Lamp ${tag}`);
    expect((await get(`/admin/inventory?q=${tag}&low=true`, session)).html).toContain('No variants match.');
    const dashboardBefore = await get('/admin', session);
    const lowCount = (html: string) => Number(/Variants low on stock<\/div><div class="stat">(\d+)</.exec(html)?.[1]);
    expect(dashboardBefore.html).toContain('Variants low on stock');

    const zero = await post(`/admin/inventory/${variantId}/adjustments`, { _csrf: token, delta: '0', reason: 'damage' }, session);
    expect(zero.res.status).toBe(422);
    expect(errorOf(zero.html, 'delta')).toBe('must not be zero');
    const reason = await post(`/admin/inventory/${variantId}/adjustments`, { _csrf: token, delta: '-1', reason: 'order' }, session);
    expect(reason.res.status).toBe(422);
    expect(errorOf(reason.html, 'reason')).toBeTruthy();
    const tooMany = await post(`/admin/inventory/${variantId}/adjustments`, { _csrf: token, delta: '-11', reason: 'damage' }, session);
    expect(tooMany.res.status).toBe(409);
    expect(errorOf(tooMany.html, 'delta')).toBe('must be at least -10 with the stock now');
    expect(tooMany.html).toContain('value="-11"');

    const adjusted = await post(`/admin/inventory/${variantId}/adjustments`, { _csrf: token, delta: '-7', reason: 'damage', note: 'Dropped a box' }, session);
    expect(adjusted.res.status).toBe(303);
    expect(adjusted.res.headers.get('Location')).toBe(`/admin/inventory/${variantId}`);
    expect(flashOf(adjusted.res)?.text).toBe('Stock adjusted by -7: 3 in stock now. That is at or below its low-stock threshold (5).');

    const low = await get(`/admin/inventory?q=${tag}&low=true`, session);
    expect(low.html).toContain(`Lamp ${tag}`);
    expect(low.html).toContain('b-low');
    expect((await get(`/admin/inventory?q=${tag}&low=false`, session)).html).toContain('No variants match.');

    const history = await get(`/admin/inventory/${variantId}`, session);
    expect(history.html).toContain('<p class="stat" id="stock-level">3</p>');
    expect(history.html).toContain('Dropped a box');
    expect(history.html).toContain('b-damage');
    expect((await get(`/admin/inventory/${variantId}?reason=restock`, session)).html).toContain('No stock changes recorded.');

    const dashboard = await get('/admin', session);
    expect(dashboard.html).toContain(`Lamp ${tag}`);
    expect(lowCount(dashboard.html)).toBe(lowCount(dashboardBefore.html) + 1);

    expect((await get('/admin/inventory/var_unknown', session)).res.status).toBe(404);
    expect((await get('/admin/inventory?low=maybe', session)).res.status).toBe(400);
  });

  it("lets a vendor user read its own variants' stock only, and not adjust it", async () => {
    const [mine, theirs] = await Promise.all([createVendor(db(), { name: `Mine ${uid()}` }), createVendor(db(), { name: `Theirs ${uid()}` })]);
    const own = await createProduct(db(), { name: `Own ${uid()}`, price: 5, stock: 4 }, mine.id);
    const other = await createProduct(db(), { name: `Other ${uid()}`, price: 5, stock: 4 }, theirs.id);
    const { session, token, page } = await as('vendor', '/admin/inventory', mine.id);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(own.name);
    expect(page.html).not.toContain(other.name);
    expect(page.html).not.toContain('Adjust · history');
    const ownPage = await get(`/admin/inventory/${own.variants[0]!.id}`, session);
    expect(ownPage.res.status).toBe(200);
    expect(ownPage.html).not.toContain('Adjust stock');
    expect((await get(`/admin/inventory/${other.variants[0]!.id}`, session)).res.status).toBe(404);
    expect((await post(`/admin/inventory/${own.variants[0]!.id}/adjustments`, { _csrf: token, delta: '5', reason: 'restock' }, session)).res.status).toBe(403);
  });
});
