import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { getCurrency } from '../../src/modules/settings/currencies.service';
import { getSettings } from '../../src/modules/settings/settings.service';
import { createTaxClass, getTaxClass } from '../../src/modules/settings/tax-classes.service';
import { createTaxRate, getTaxRate } from '../../src/modules/settings/taxes.service';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { errorOf, flashOf, get, post, submit } from './panel-client';
import { role, signedIn } from './people-client';

/** The panel's tax settings: Settings > Tax classes, the rates' class, and whether prices include tax (store and currency). */

const HOME = '/admin/settings/tax-classes';
const freshCode = () =>
  `c-${uid()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`.slice(0, 40);
const newClass = async () => createTaxClass(db(), { code: freshCode(), name: `Class ${uid()}` });
/** A region code of its own for each rate (storage is shared by the tests of a file). */
let regions = 0;
const freshRegion = () => (++regions).toString(36).toUpperCase().padStart(3, 'T');
/** The options of one select on a page, as value => selected. */
function optionsOf(html: string, name: string) {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
  return Object.fromEntries([...select.matchAll(/<option value="([^"]*)"( selected="")?/g)].map((m) => [m[1], Boolean(m[2])]));
}

describe('admin settings: tax classes', () => {
  it('lists the classes, adds one, renames it and deletes it with its rates', async () => {
    const { session } = await signedIn('admin');
    const list = await get(HOME, session);
    expect(list.res.status).toBe(200);
    for (const code of ['standard', 'reduced', 'zero']) expect(list.html).toContain(`<code>${code}</code>`);
    expect(list.html).not.toContain(`action="${HOME}/standard/delete"`);
    expect(list.html).toContain(`action="${HOME}/reduced/delete"`);

    const code = freshCode();
    const added = await submit(HOME, HOME, { code, name: 'Books' }, session);
    expect(added.res.status, added.html.slice(0, 500)).toBe(303);
    expect(flashOf(added.res)?.text).toBe('Tax class “Books” added.');
    expect(await getTaxClass(db(), code)).toMatchObject({ code, name: 'Books' });

    const path = `${HOME}/${code}`;
    expect((await get(path, session)).html).toContain('value="Books"');
    const renamed = await submit(path, path, { name: 'Books and newspapers' }, session);
    expect(renamed.res.status).toBe(303);
    expect((await getTaxClass(db(), code)).name).toBe('Books and newspapers');
    // The rename's audit entry opens the class's page.
    const history = await get(`/admin/audit-log?resource=tax_class&resource_id=${code}&action=update`, session);
    const entryId = /href="\/admin\/audit-log\/(\d+)"/.exec(history.html)?.[1];
    expect(entryId).toBeDefined();
    expect((await get(`/admin/audit-log/${entryId}`, session)).html).toContain(`href="${path}"`);
    const blank = await submit(path, path, { name: ' ' }, session);
    expect(blank.res.status).toBe(422);
    expect(errorOf(blank.html, 'name')).toBeTruthy();

    const rate = await createTaxRate(db(), { name: 'Books DE', country: 'DE', region: freshRegion(), rate: 7, taxClass: code });
    const deleted = await submit(HOME, `${path}/delete`, {}, session);
    expect(deleted.res.status).toBe(303);
    expect(flashOf(deleted.res)).toEqual({ kind: 'ok', text: `Tax class ${code} deleted, with its tax rates.` });
    expect((await api(`/api/settings/tax-classes/${code}`, { key: await adminKey() })).status).toBe(404);
    await expect(getTaxRate(db(), rate.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a taken code (409) and a code that is not a slug (422) on the list page, the form refilled', async () => {
    const { session } = await signedIn('admin');
    const taken = await submit(HOME, HOME, { code: 'reduced', name: 'Another reduced' }, session);
    expect(taken.res.status).toBe(409);
    expect(errorOf(taken.html, 'code')).toBe('is already the code of a tax class');
    expect(taken.html).toContain('value="Another reduced"');
    const bad = await submit(HOME, HOME, { code: 'Not A Slug', name: '' }, session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'code')).toContain('lower-case');
    expect(errorOf(bad.html, 'name')).toBeTruthy();
  });

  it('shows the refused deletes (built in, used by products) as flash errors and keeps the class', async () => {
    const { session } = await signedIn('admin');
    const standard = await submit(HOME, `${HOME}/standard/delete`, {}, session);
    expect(standard.res.status).toBe(303);
    expect(flashOf(standard.res)).toEqual({ kind: 'error', text: 'The standard tax class is built in and cannot be deleted' });

    const used = await newClass();
    const product = await createProduct(await adminKey());
    await db().update(products).set({ taxClass: used.code }).where(eq(products.id, product.id));
    const refused = await submit(HOME, `${HOME}/${used.code}/delete`, {}, session);
    expect(flashOf(refused.res)).toEqual({ kind: 'error', text: `1 product uses the tax class ${used.code}; move it to another class first` });
    expect((await getTaxClass(db(), used.code)).code).toBe(used.code);
  });

  it('shows settings:read the classes without forms, and refuses its writes (403)', async () => {
    const taxClass = await newClass();
    const reader = await signedIn((await role(['settings:read'])).id);
    const page = await get(HOME, reader.session);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(taxClass.name);
    expect(page.html).not.toContain(`action="${HOME}"`);
    expect(page.html).not.toContain(`href="${HOME}/${taxClass.code}"`);
    expect((await get(`${HOME}/${taxClass.code}`, reader.session)).res.status).toBe(403);
    expect((await post(`${HOME}/${taxClass.code}`, { _csrf: reader.csrf, name: 'Renamed' }, reader.session)).res.status).toBe(403);
    expect((await post(`${HOME}/${taxClass.code}/delete`, { _csrf: reader.csrf }, reader.session)).res.status).toBe(403);
    expect(await getTaxClass(db(), taxClass.code)).toEqual(taxClass);
  });
});

describe('admin settings: the tax class of a rate', () => {
  it('offers every class but zero, creates a rate of a class and moves it to another', async () => {
    const { session } = await signedIn('admin');
    const extra = await newClass();
    const options = optionsOf((await get('/admin/settings', session)).html, 'taxClass');
    expect(options).toMatchObject({ standard: true, reduced: false, [extra.code]: false });
    expect(options).not.toHaveProperty('zero');

    const region = freshRegion();
    const created = await submit('/admin/settings', '/admin/settings/taxes', { name: `Reduced ${region}`, country: 'FR', region, rate: '5.5', taxClass: 'reduced' }, session);
    expect(created.res.status, created.html.slice(0, 500)).toBe(303);
    const [rate] = (await api(`/api/settings/taxes?country=FR&region=${region}`, { key: await adminKey() })).body.data;
    expect(rate).toMatchObject({ taxClass: 'reduced', rate: 5.5 });

    const path = `/admin/settings/taxes/${rate.id}`;
    expect(optionsOf((await get(path, session)).html, 'taxClass')).toMatchObject({ reduced: true, standard: false });
    const moved = await submit(path, path, { name: rate.name, country: 'FR', region, rate: '5.5', taxClass: extra.code }, session);
    expect(moved.res.status).toBe(303);
    expect((await getTaxRate(db(), rate.id)).taxClass).toBe(extra.code);
    const unknown = await submit(path, path, { name: rate.name, country: 'FR', region, rate: '5.5', taxClass: 'gone' }, session);
    expect(unknown.res.status).toBe(422);
    expect(errorOf(unknown.html, 'taxClass')).toContain('no tax class &#39;gone&#39;');
    expect((await getTaxRate(db(), rate.id)).taxClass).toBe(extra.code);
  });
});

describe('admin settings: prices include tax', () => {
  it("switches the store's prices to include tax and back with the checkbox", async () => {
    const { session } = await signedIn('admin');
    const current = await getSettings(db());
    const store = { name: current.name, defaultCurrency: current.defaultCurrency, weightUnit: current.weightUnit, lowStockThreshold: String(current.lowStockThreshold) };
    const on = await submit('/admin/settings', '/admin/settings', { ...store, pricesIncludeTax: 'on' }, session);
    expect(on.res.status, on.html.slice(0, 500)).toBe(303);
    expect((await getSettings(db())).pricesIncludeTax).toBe(true);
    expect((await get('/admin/settings', session)).html).toMatch(/name="pricesIncludeTax" id="f-pricesIncludeTax" checked/);
    const off = await submit('/admin/settings', '/admin/settings', store, session);
    expect(off.res.status).toBe(303);
    expect((await getSettings(db())).pricesIncludeTax).toBe(false);
  });

  it('adds a currency whose prices include tax, then makes it follow the store, then exclude tax', async () => {
    const { session } = await signedIn('admin');
    const code = `T${String.fromCharCode(65 + Math.floor(Math.random() * 26))}${String.fromCharCode(65 + Math.floor(Math.random() * 26))}`;
    const added = await submit(
      '/admin/settings',
      '/admin/settings/currencies',
      { code, name: 'Taxed money', symbol: 'T', minorUnits: '2', exchangeRate: '2', pricesIncludeTax: 'yes' },
      session,
    );
    expect(added.res.status, added.html.slice(0, 500)).toBe(303);
    expect((await getCurrency(db(), code)).pricesIncludeTax).toBe(true);

    const path = `/admin/settings/currencies/${code}`;
    expect(optionsOf((await get(path, session)).html, 'pricesIncludeTax')).toEqual({ '': false, yes: true, no: false });
    const fields = { name: 'Taxed money', symbol: 'T', minorUnits: '2', exchangeRate: '2', enabled: 'on' };
    expect((await submit(path, path, { ...fields, pricesIncludeTax: '' }, session)).res.status).toBe(303);
    expect((await getCurrency(db(), code)).pricesIncludeTax).toBeNull();
    expect((await get('/admin/settings', session)).html).toMatch(new RegExp(`<td>${code}</td>(<td[^>]*>[^<]*</td>){4}<td>store default</td>`));
    expect((await submit(path, path, { ...fields, pricesIncludeTax: 'no' }, session)).res.status).toBe(303);
    expect((await getCurrency(db(), code)).pricesIncludeTax).toBe(false);
    expect(optionsOf((await get(path, session)).html, 'pricesIncludeTax')).toEqual({ '': false, yes: false, no: true });
  });
});
