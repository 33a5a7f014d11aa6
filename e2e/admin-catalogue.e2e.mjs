// Browser test of the admin panel's catalogue area (categories, brands, vendors, inventory), and of
// finding its writes in the audit log: Playwright drives Debian's Chromium against the Worker
// (e2e/panel-browser.mjs). Run: node --test e2e/admin-catalogue.e2e.mjs
// Screenshots are written to docs/screenshots/admin-{categories,brands,product-images,vendors,inventory}*.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { productPng } from '../scripts/lib/seed-images.mjs';
import { auditChanges, auditRows, openPanel } from './panel-browser.mjs';

// A loaded two-core machine: wrangler's first requests compile the Worker, so waits are generous.
const WAIT = 60_000;

let panel;
let page;

const shot = (name) => panel.shot(name);

/** Submits a form by its button and waits for the page it leads to. */
const submit = (form, button = 'button[type=submit]') => panel.submit(`${form} ${button}`);

const flash = () => page.locator('main .flash').first().textContent({ timeout: WAIT });

/** The value of the option of `select` whose label contains `label`. */
async function optionValue(select, label) {
  const value = await page.locator(`${select} option`, { hasText: label }).first().getAttribute('value', { timeout: WAIT });
  assert.ok(value, `an option "${label}" in ${select}`);
  return value;
}

before(async () => {
  panel = await openPanel({ wait: WAIT });
  page = panel.page;
  await panel.signIn(panel.worker.admin.email, panel.worker.admin.password);
});

after(() => panel?.close());

test('categories: a tree; one moved to another parent; a cycle refused next to the field; reordered; deleted', async () => {
  await page.goto('/admin/categories');
  assert.equal(await page.textContent('h1'), 'Categories');
  const create = async (name, parent) => {
    await page.fill('form[method=post][action="/admin/categories"] input[name=name]', name);
    if (parent)
      await page.selectOption(
        'form[method=post][action="/admin/categories"] select[name=parentId]',
        await optionValue('form[method=post][action="/admin/categories"] select[name=parentId]', parent),
      );
    await submit('form[method=post][action="/admin/categories"]');
    assert.match(await flash(), new RegExp(`Category “${name}” created`));
  };
  await create('Home');
  await create('Garden');
  await create('Outdoor');
  await create('Lighting', 'Home');
  await create('Lamps', 'Lighting');

  // Lighting is indented under Home, Lamps under Lighting.
  const names = await page.locator('tr[data-category] td:first-child').allTextContents();
  const at = (n) => names.findIndex((t) => t.trim().endsWith(n));
  assert.ok(at('Lighting') === at('Home') + 1 && at('Lamps') === at('Lighting') + 1, names.join(' | '));
  assert.match(names[at('Lamps')], /└/);

  // Lighting moves to Garden, taking Lamps with it.
  await page.click('tr[data-category=lighting] a:has-text("Edit")');
  await page.waitForSelector('h1:has-text("Lighting")');
  await page.selectOption('select[name=parentId]', await optionValue('select[name=parentId]', 'Garden'));
  await submit('main form.card');
  assert.match(await flash(), /“Lighting” saved/);
  const moved = await page.locator('tr[data-category] td:first-child').allTextContents();
  const m = (n) => moved.findIndex((t) => t.trim().endsWith(n));
  assert.ok(m('Lighting') === m('Garden') + 1 && m('Lamps') === m('Lighting') + 1, moved.join(' | '));

  // Garden under its own grandchild Lamps: refused, the message next to the parent select.
  await page.click('tr[data-category=garden] a:has-text("Edit")');
  await page.waitForSelector('h1:has-text("Garden")');
  await page.selectOption('select[name=parentId]', await optionValue('select[name=parentId]', 'Lamps'));
  await submit('main form.card');
  assert.match(await page.textContent('#f-parentId-error'), /cannot be moved under itself or its descendants/);
  await shot('admin-categories-edit');

  // Outdoor up above Garden (top level, in name order: Garden, Home, Outdoor).
  await page.goto('/admin/categories');
  await submit('tr[data-category=outdoor]', 'button:has-text("↑")');
  assert.match(await flash(), /“Outdoor” moved up/);
  const reordered = await page.locator('tr[data-category] td:first-child').allTextContents();
  const r = (n) => reordered.findIndex((t) => t.trim().endsWith(n));
  assert.ok(r('Outdoor') < r('Home'), reordered.join(' | '));

  // Garden has sub-categories: the API's 409 as a flash error; Outdoor is empty and goes.
  await submit('tr[data-category=garden]', 'button:has-text("Delete")');
  assert.match(await page.textContent('main .flash.error'), /has sub-categories/);
  await shot('admin-categories');
  await submit('tr[data-category=outdoor]', 'button:has-text("Delete")');
  assert.match(await flash(), /“Outdoor” deleted/);
  assert.equal(await page.locator('tr[data-category=outdoor]').count(), 0);
});

test('brands: created, searched, edited, and given to a product in the product form', async () => {
  await page.goto('/admin/brands');
  await page.fill('form[method=post][action="/admin/brands"] input[name=name]', 'Lumen Works');
  await page.fill('form[method=post][action="/admin/brands"] textarea[name=description]', 'Lamps and lights, made in Lisbon.');
  await submit('form[method=post][action="/admin/brands"]');
  assert.match(await flash(), /Brand “Lumen Works” created/);
  await page.fill('form[method=post][action="/admin/brands"] input[name=name]', 'Anvil & Co');
  await submit('form[method=post][action="/admin/brands"]');

  await page.fill('form[role=search] input[name=q]', 'lumen');
  await submit('form[role=search]');
  assert.equal(await page.locator('tbody tr').count(), 1);
  await shot('admin-brands');

  await page.click('a:has-text("Lumen Works")');
  await page.waitForSelector('h1:has-text("Lumen Works")');
  await page.fill('input[name=logoUrl]', 'https://example.com/lumen.png');
  await page.fill('input[name=name]', 'Lumen Works Lisboa');
  await submit('main form.card');
  assert.match(await flash(), /“Lumen Works Lisboa” saved/);

  await page.goto('/admin/products/new');
  await page.fill('input[name=name]', 'E2E Desk Lamp');
  await page.fill('input[name=price]', '39.90');
  await page.fill('input[name=sku]', 'DESK-LAMP');
  await page.selectOption('select[name=brandId]', { label: 'Lumen Works Lisboa' });
  await page.fill('input[name=stock]', '10');
  await page.fill('input[name=lowStockThreshold]', '5');
  await submit('main form.card');
  assert.match(await flash(), /Product “E2E Desk Lamp” created/);
  assert.equal(await page.locator('select[name=brandId] option:checked').textContent(), 'Lumen Works Lisboa');
  await page.goto('/admin/products?q=Desk');
  assert.match(await page.textContent('tbody tr'), /Lumen Works Lisboa/);
});

test('product images: uploaded with the file input, moved, given alt text, deleted; served from R2', async () => {
  await page.goto('/admin/products?q=Desk');
  await page.click('a:has-text("E2E Desk Lamp")');
  await page.waitForSelector('h1:has-text("E2E Desk Lamp")');
  const uploadForm = 'form[enctype="multipart/form-data"]';
  for (const name of ['Desk lamp, lit', 'Desk lamp, folded', 'Desk lamp, from above']) {
    await page.setInputFiles(`${uploadForm} input[type=file]`, { name: 'lamp.png', mimeType: 'image/png', buffer: productPng(name, 360) });
    await page.fill(`${uploadForm} input[name=alt]`, name);
    await submit(uploadForm);
    assert.match(await flash(), /Image uploaded/);
  }
  const alts = () => page.locator('.media-grid img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')));
  assert.deepEqual(await alts(), ['Desk lamp, lit', 'Desk lamp, folded', 'Desk lamp, from above']);
  // Every picture came back from /media/{key} and decoded as a 360×360 image.
  await page.waitForFunction(() => [...document.querySelectorAll('.media-grid img')].every((img) => img.complete && img.naturalWidth === 360), null, { timeout: WAIT });

  await page.locator('.media-grid figure').nth(2).locator('button:has-text("Earlier")').click();
  await page.waitForLoadState('load');
  assert.deepEqual(await alts(), ['Desk lamp, lit', 'Desk lamp, from above', 'Desk lamp, folded']);
  await page.locator('.media-grid figure').nth(0).locator('button:has-text("Delete")').click();
  await page.waitForLoadState('load');
  assert.match(await flash(), /Image deleted/);
  assert.deepEqual(await alts(), ['Desk lamp, from above', 'Desk lamp, folded']);
  await page.locator('#images').scrollIntoViewIfNeeded();
  await shot('admin-product-images');
});

test('vendors: created, suspended, found by the status filter, reactivated', async () => {
  await page.goto('/admin/vendors');
  await page.fill('form[method=post][action="/admin/vendors"] input[name=name]', 'Northwind Crafts');
  await page.fill('form[method=post][action="/admin/vendors"] input[name=email]', 'hello@northwind.example');
  await submit('form[method=post][action="/admin/vendors"]');
  assert.match(await flash(), /Vendor “Northwind Crafts” created/);

  await submit('main .actions', 'button:has-text("Suspend")');
  assert.match(await flash(), /is suspended/);
  await shot('admin-vendors-edit');

  await page.goto('/admin/vendors');
  await page.fill('form[method=post][action="/admin/vendors"] input[name=name]', 'Southwind Goods');
  await submit('form[method=post][action="/admin/vendors"]');
  await page.goto('/admin/vendors?status=suspended');
  assert.deepEqual(
    (await page.locator('tbody tr td:first-child a').allTextContents()).map((t) => t.trim()),
    ['Northwind Crafts'],
  );
  await page.goto('/admin/vendors');
  await shot('admin-vendors');
  await submit('tbody tr:has-text("Northwind Crafts")', 'button:has-text("Reactivate")');
  assert.match(await flash(), /is active again/);
});

test('inventory: stock taken below the threshold shows in the low-stock filter, the history and the dashboard', async () => {
  await page.goto('/admin');
  const lowStat = page.locator('.card:has(div.muted:text-is("Variants low on stock")) .stat');
  const before = Number(await lowStat.textContent());

  await page.goto('/admin/inventory?q=Desk');
  assert.match(await page.textContent('tbody tr'), /E2E Desk Lamp/);
  await page.click('tbody tr:has-text("E2E Desk Lamp") a:has-text("Adjust")');
  await page.waitForSelector('h1:has-text("Stock of E2E Desk Lamp")');

  // Taking out more than there is: the API's 409, next to the field.
  await page.fill('input[name=delta]', '-25');
  await page.selectOption('select[name=reason]', 'damage');
  await submit('form[action$="/adjustments"]');
  assert.match(await page.textContent('#f-delta-error'), /at least -10/);

  await page.fill('input[name=delta]', '-7');
  await page.selectOption('select[name=reason]', 'damage');
  await page.fill('input[name=note]', 'Dropped a box');
  await submit('form[action$="/adjustments"]');
  assert.match(await flash(), /3 in stock now\. That is at or below its low-stock threshold \(5\)/);
  assert.equal((await page.textContent('#stock-level')).trim(), '3');
  assert.match(await page.textContent('table'), /Dropped a box/);
  await shot('admin-inventory-variant');

  await page.goto('/admin/inventory');
  await page.selectOption('form[role=search] select[name=low]', 'true');
  await submit('form[role=search]');
  assert.match(page.url(), /low=true/);
  assert.match(await page.textContent('tbody'), /E2E Desk Lamp/);
  await shot('admin-inventory');

  await page.goto('/admin');
  assert.equal(Number(await lowStat.textContent()), before + 1);
  assert.match(await page.textContent('section[aria-labelledby=low]'), /E2E Desk Lamp/);
});

test('the audit log holds the catalogue writes: the categories, the move with its parent before and after, the brand, the stock taken', async () => {
  const categories = await auditRows(page, { resource: 'category', action: 'create' });
  assert.ok(categories.length >= 5, `five categories created, found ${categories.length}`);
  const moves = (await auditRows(page, { resource: 'category', action: 'update' })).filter((r) => /parentId/.test(r.fields));
  assert.ok(moves.length >= 1, 'the move of Lighting is an update of its parent');
  const [move] = await auditChanges(page, moves.at(-1).id);
  assert.equal(move.field, 'parentId');
  assert.notEqual(move.before, move.after);
  await shot('admin-audit-entry-move');

  const brands = await auditRows(page, { resource: 'brand' });
  assert.deepEqual(brands.map((r) => r.action).sort(), ['create', 'create', 'update']);
  const stock = (await auditRows(page, { resource: 'variant', action: 'update' })).filter((r) => /stock/.test(r.fields));
  assert.ok(stock.length >= 1, 'the stock adjustment is recorded on the variant');
  const changes = await auditChanges(page, stock[0].id);
  assert.deepEqual(
    changes.find((c) => c.field === 'stock'),
    { field: 'stock', before: '10', after: '3' },
  );
  for (const row of [...categories, ...brands, ...stock]) assert.match(row.actor, /owner@example\.com/);
});
