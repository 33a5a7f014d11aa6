// Browser test of the admin panel's Content area (pages, menus, banners), and of finding its writes in
// the audit log: Playwright drives Debian's Chromium against the Worker (e2e/panel-browser.mjs).
// Run: node --test e2e/admin-content.e2e.mjs. Screenshots go to docs/screenshots/admin-*.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditChanges, auditRows, openPanel } from './panel-browser.mjs';

let panel;
let worker;
let page;
const state = {};

const shot = (name) => panel.shot(name);

/** The public API, called anonymously as the storefront would. */
async function publicApi(url) {
  const res = await fetch(`${worker.base}${url}`);
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Submits a form by its button and waits for the page it leads to. */
const submit = (button) => panel.submit(button);

/** A `datetime-local` value (UTC) `hours` from now. */
const inHours = (hours) => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 16);

before(async () => {
  panel = await openPanel();
  ({ worker, page } = panel);

  await page.goto('/admin/content/pages');
  await page.waitForURL(/\/admin\/sign-in/);
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', worker.admin.password);
  await submit('button[type=submit]');
  await page.waitForURL('**/admin/content/pages');
});

after(() => panel?.close());

test('a page written in Markdown is previewed, scheduled, then published now and read on the public API', { timeout: 240_000 }, async () => {
  assert.equal(await page.textContent('h1'), 'Pages');
  await page.click('text=+ New page');
  await page.waitForURL('**/admin/content/pages/new');
  await page.fill('input[name=title]', 'Shipping and returns');
  await page.fill('textarea[name=body]', '# Shipping\n\nFree over **50 EUR**.\n\n- Tracked\n- Insured\n\n<script>alert(1)</script>');

  // Preview: the API's renderer, shown beside the form; nothing saved yet.
  await submit('button[value=preview]');
  const preview = page.locator('[aria-label="Rendered preview"]');
  await preview.locator('h1', { hasText: 'Shipping' }).waitFor();
  assert.equal(await preview.locator('strong').textContent(), '50 EUR');
  assert.equal(await preview.locator('li').count(), 2);
  assert.equal(await preview.locator('script').count(), 0, 'the script is removed');
  assert.match(await page.inputValue('textarea[name=body]'), /<script>alert\(1\)<\/script>/, 'the form keeps the text as written');

  await submit('button[value=save]');
  await page.waitForURL(/\/admin\/content\/pages\/page_/);
  state.pageId = page.url().split('/').pop();
  await page.locator('.flash.ok').waitFor();
  assert.equal((await publicApi('/api/pages/shipping-and-returns')).status, 404, 'a draft is not public');

  // Edit, preview the change beside the form.
  await page.fill('textarea[name=body]', '# Shipping\n\nFree over **50 EUR**, delivered in *two days*.');
  await submit('button[value=preview]');
  await page.locator('[aria-label="Rendered preview"] em', { hasText: 'two days' }).waitFor();
  await shot('admin-page-edit');
  await submit('button[value=save]');
  await page.locator('.flash.ok', { hasText: 'Page saved' }).waitFor();

  // Schedule for tomorrow: still not public.
  await page.fill('input[name=scheduleAt]', inHours(24));
  await submit('button:has-text("Schedule")');
  await page.locator('.flash.ok', { hasText: 'scheduled' }).waitFor();
  await page.locator('.actions .badge.b-scheduled').waitFor();
  assert.equal((await publicApi('/api/pages/shipping-and-returns')).status, 404, 'a scheduled page is not public yet');

  // Publish now: public at once, with the sanitised HTML.
  await submit('button:has-text("Publish now")');
  await page.locator('.flash.ok', { hasText: 'is published' }).waitFor();
  await page.locator('.actions .badge.b-published').waitFor();
  const read = await publicApi('/api/pages/shipping-and-returns');
  assert.equal(read.status, 200);
  assert.match(read.json.data.bodyHtml, /<em>two days<\/em>/);

  await page.goto('/admin/content/pages?status=published&q=shipping');
  await page.locator(`a[href="/admin/content/pages/${state.pageId}"]`).waitFor();
  await shot('admin-pages');
});

test('a menu is built with an item nested under another, and the API serves the nesting', { timeout: 240_000 }, async () => {
  await page.goto('/admin/content/menus');
  await page.fill('input[name=name]', 'Main navigation');
  await page.fill('input[name=handle]', 'main');
  await submit('button:has-text("Create menu")');
  await page.waitForURL(/\/admin\/content\/menus\/menu_/);
  const menuId = page.url().split('/').pop();

  const addItem = async (label, type, target, parent) => {
    await page.fill('input[name=label]', label);
    await page.selectOption('select[name=type]', type);
    await page.fill('input[name=target]', target);
    await page.selectOption('select[name=parent]', parent ?? '');
    await submit(`form[action="/admin/content/menus/${menuId}/items"] button[type=submit]`);
    await page.locator('.flash.ok', { hasText: `Item “${label}” added` }).waitFor();
  };
  await addItem('Shop', 'url', '/shop');
  await addItem('Help', 'url', '/help');
  await addItem('Shipping', 'page', 'shipping-and-returns', '1');
  await addItem('Sale', 'url', 'https://example.com/sale');

  // Move Sale up above Help, then nest it under Shop.
  await submit('li[data-path="2"] > .actions button[title="Move up"]');
  await page.locator('li[data-path="1"] > .actions strong', { hasText: 'Sale' }).waitFor();
  await submit('li[data-path="1"] > .actions button[title="Nest under the item above"]');
  await page.locator('li[data-path="0.0"] > .actions strong', { hasText: 'Sale' }).waitFor();

  // A fourth level is refused with the API's error.
  await addItem('Deeper', 'url', '/deeper', '0.0');
  await page.fill('input[name=label]', 'Too deep');
  await page.selectOption('select[name=type]', 'url');
  await page.fill('input[name=target]', '/too-deep');
  await page.selectOption('select[name=parent]', '0.0.0');
  await submit(`form[action="/admin/content/menus/${menuId}/items"] button[type=submit]`);
  assert.match(await page.locator('#f-parent-error').textContent(), /menus nest at most three levels/);
  // Take "Deeper" out again.
  await page.goto(`/admin/content/menus/${menuId}`);
  await submit('li[data-path="0.0.0"] > .actions button[title="Remove"]');
  await page.locator('.flash.ok', { hasText: 'Item removed' }).waitFor();
  await shot('admin-menu-edit');

  const menu = await publicApi(`/api/menus/${menuId}`);
  assert.equal(menu.status, 200);
  const items = menu.json.data.items;
  assert.deepEqual(
    items.map((i) => i.label),
    ['Shop', 'Help'],
  );
  assert.deepEqual(
    items[0].children.map((i) => i.label),
    ['Sale'],
  );
  assert.equal(items[0].children[0].url, 'https://example.com/sale');
  assert.deepEqual(
    items[1].children.map((i) => [i.label, i.url]),
    [['Shipping', '/pages/shipping-and-returns']],
  );

  await page.goto('/admin/content/menus');
  await page.locator(`a[href="/admin/content/menus/${menuId}"]`).waitFor();
  await shot('admin-menus');
});

test('a banner with a future schedule is listed as scheduled', { timeout: 240_000 }, async () => {
  await page.goto('/admin/content/banners');
  await page.click('text=+ New banner');
  await page.waitForURL('**/admin/content/banners/new');
  await page.fill('input[name=title]', 'Winter sale');
  await page.fill('input[name=placement]', 'home-hero');
  await page.fill('input[name=imageUrl]', 'https://cdn.example.com/winter-sale.jpg');
  await page.fill('input[name=altText]', 'Winter sale: 20% off');
  await page.fill('input[name=linkUrl]', '/categories/winter');
  // Ends before it starts: the API's message next to the field.
  await page.fill('input[name=startsAt]', inHours(48));
  await page.fill('input[name=endsAt]', inHours(24));
  await submit('form[action="/admin/content/banners/new"] button[type=submit]');
  assert.match(await page.locator('#f-endsAt-error').textContent(), /must be after startsAt/);

  await page.fill('input[name=startsAt]', inHours(24));
  await page.fill('input[name=endsAt]', inHours(24 * 8));
  await submit('form[action="/admin/content/banners/new"] button[type=submit]');
  await page.waitForURL(/\/admin\/content\/banners\/bnr_/);
  await page.locator('.flash.ok', { hasText: 'scheduled' }).waitFor();
  await page.locator('.actions .badge.b-scheduled').waitFor();
  await shot('admin-banners-edit');

  // Another one, live now, so the list shows both kinds.
  await page.goto('/admin/content/banners/new');
  await page.fill('input[name=title]', 'Free shipping');
  await page.fill('input[name=placement]', 'home-hero');
  await page.fill('input[name=position]', '1');
  await page.fill('input[name=imageUrl]', 'https://cdn.example.com/free-shipping.jpg');
  await submit('form[action="/admin/content/banners/new"] button[type=submit]');
  await page.locator('.flash.ok', { hasText: 'live' }).waitFor();

  await page.goto('/admin/content/banners?placement=home-hero');
  const row = page.locator('tr', { hasText: 'Winter sale' });
  assert.equal((await row.locator('.badge').textContent()).trim(), 'scheduled');
  assert.equal((await page.locator('tr', { hasText: 'Free shipping' }).locator('.badge').textContent()).trim(), 'live');
  await shot('admin-banners');

  // The public sees only the live one.
  const live = await publicApi('/api/banners?placement=home-hero');
  assert.deepEqual(
    live.json.data.map((b) => b.title),
    ['Free shipping'],
  );
});

test('the audit log holds the content writes: the page, its publishing, the menu and the banner', async () => {
  const pages = await auditRows(page, { resource: 'page' });
  assert.ok(
    pages.some((r) => r.action === 'create'),
    'the page was created',
  );
  const published = pages.filter((r) => r.action === 'update' && /status/.test(r.fields));
  assert.ok(published.length >= 1, 'publishing is an update of its status');
  const statusChanges = (await Promise.all(published.map((r) => auditChanges(page, r.id)))).flat().filter((c) => c.field === 'status');
  assert.ok(
    statusChanges.some((c) => c.after === 'published'),
    JSON.stringify(statusChanges),
  );
  const menus = await auditRows(page, { resource: 'menu' });
  assert.ok(menus.some((r) => r.action === 'create') && menus.some((r) => r.action === 'update' && /items/.test(r.fields)), JSON.stringify(menus));
  assert.ok((await auditRows(page, { resource: 'banner', action: 'create' })).length >= 1, 'the banner');
  for (const row of [...pages, ...menus]) assert.match(row.actor, /owner@example\.com/);
});
