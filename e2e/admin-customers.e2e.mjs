// Browser test of the admin panel's customer pages: Playwright (playwright-core) drives Debian's
// Chromium against the Worker started locally with its own state (e2e/server.mjs).
// Run: node --test e2e/admin-customers.e2e.mjs
// Screenshots: docs/screenshots/admin-customers.png, admin-customer.png, admin-customer-address.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPanel } from './panel-browser.mjs';

let panel;
let worker;
let page;
const state = {};

const shot = (name) => panel.shot(name);
/** The API, called as a client would, with the key the panel generated. */
const api = (method, url, key) => panel.api(method, url, key);

before(async () => {
  panel = await openPanel({ wait: 30_000 });
  ({ worker, page } = panel);
});

after(() => panel?.close());

test('an admin creates a customer, refused first for a bad phone', async () => {
  await page.goto('/admin/sign-in');
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', worker.admin.password);
  await page.click('form[action^="/admin/sign-in"] button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/admin');
  await page.click('nav[aria-label=Main] a[href="/admin/customers"]');
  await page.locator('h1', { hasText: 'Customers' }).waitFor();

  const create = 'form[action="/admin/customers"][method=post]';
  await page.fill(`${create} input[name=email]`, 'ada@example.com');
  await page.fill(`${create} input[name=name]`, 'Ada Lovelace');
  await page.fill(`${create} input[name=phone]`, '12');
  await page.click(`${create} button[type=submit]`);
  await page.locator('#f-phone-error').waitFor();
  assert.equal(await page.inputValue(`${create} input[name=name]`), 'Ada Lovelace');

  await page.fill(`${create} input[name=phone]`, '+14155550100');
  await page.click(`${create} button[type=submit]`);
  await page.waitForURL((url) => /^\/admin\/customers\/[^/]+$/.test(url.pathname));
  assert.match(await page.textContent('.flash.ok'), /Customer ada@example.com created/);
  state.id = new URL(page.url()).pathname.split('/').pop();

  await page.goto('/admin/customers');
  await page.locator('a', { hasText: 'Ada Lovelace' }).waitFor();
  await shot('admin-customers');
});

test('the admin adds a default shipping address and edits the name', async () => {
  const base = `/admin/customers/${state.id}`;
  await page.goto(base);
  const add = `form[action="${base}/addresses"]`;
  await page.fill(`${add} input[name=firstName]`, 'Ada');
  await page.fill(`${add} input[name=lastName]`, 'Lovelace');
  await page.fill(`${add} input[name=line1]`, '12 St James Square');
  await page.fill(`${add} input[name=city]`, 'London');
  await page.fill(`${add} input[name=postalCode]`, 'SW1Y 4JH');
  await page.fill(`${add} input[name=country]`, 'GB');
  await page.check(`${add} input[name=isDefaultShipping]`);
  await page.click(`${add} button[type=submit]`);
  await page.locator('.flash.ok', { hasText: 'Address added.' }).waitFor();
  const row = page.locator('tr[data-address]', { hasText: '12 St James Square' });
  await row.locator('.badge', { hasText: 'shipping' }).waitFor();
  state.addressId = await row.getAttribute('data-address');

  const edit = `form[action="${base}"]`;
  await page.fill(`${edit} input[name=name]`, 'Augusta Ada King');
  await page.click(`${edit} button[type=submit]`);
  await page.locator('.flash.ok', { hasText: 'saved' }).waitFor();
  await page.locator('dd', { hasText: 'Augusta Ada King' }).waitFor();
  await shot('admin-customer');

  await row.locator('a', { hasText: 'Edit' }).click();
  await page.locator('h2', { hasText: 'Edit address' }).waitFor();
  assert.equal(await page.inputValue('input[name=line1]'), '12 St James Square');
  assert.ok(await page.isChecked('input[name=isDefaultShipping]'));
  await shot('admin-customer-address');
});

test('the API shows the change to an admin API key generated in the panel', async () => {
  await page.goto('/admin/settings/api-keys');
  await page.fill('input[name=name]', 'E2E customers');
  await page.selectOption('select[name=role]', 'admin');
  await page.click('form[action="/admin/settings/api-keys"] button[type=submit]');
  const key = (await page.locator('#new-key-value').textContent()).trim();

  const customer = await api('GET', `/api/customers/${state.id}`, key);
  assert.equal(customer.status, 200);
  assert.equal(customer.json.data.name, 'Augusta Ada King');
  assert.equal(customer.json.data.phone, '+14155550100');
  const addresses = await api('GET', `/api/customers/${state.id}/addresses`, key);
  assert.equal(addresses.status, 200);
  assert.equal(addresses.json.data.length, 1);
  assert.equal(addresses.json.data[0].id, state.addressId);
  assert.equal(addresses.json.data[0].isDefaultShipping, true);
});
