// Browser test of the admin panel's coupon edit page and the currency and tax-rate edits on Settings:
// Playwright (playwright-core) drives Debian's Chromium against the Worker started locally with its
// own state (e2e/server.mjs). Run: node --test e2e/admin-coupons-settings.e2e.mjs.
// Screenshots go to docs/screenshots/admin-coupon-edit.png and admin-settings*.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPanel } from './panel-browser.mjs';

let panel;
let worker;
let page;
const state = {};

const shot = (name) => panel.shot(name);
/** The API with the admin's token (once signed in). */
const api = (method, url, body) => panel.api(method, url, state.token, body);
/** Submits a form by its button and waits for the page it leads to. */
const submit = (button) => panel.submit(button);

before(async () => {
  panel = await openPanel();
  ({ worker, page } = panel);
  const login = await api('POST', '/api/auth/login', { email: worker.admin.email, password: worker.admin.password });
  assert.equal(login.status, 200, JSON.stringify(login.json));
  state.token = login.json.data.token;

  await page.goto('/admin/coupons');
  await page.waitForURL(/\/admin\/sign-in/);
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', worker.admin.password);
  await submit('button[type=submit]');
  await page.waitForURL('**/admin/coupons');
});

after(() => panel?.close());

test("a coupon's value is edited on its page and read back on GET /api/coupons/{id}", { timeout: 240_000 }, async () => {
  const created = await api('POST', '/api/coupons', { code: 'E2E-EDIT', type: 'percentage', value: 10, usageLimit: 100, description: 'Launch offer' });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.data.id;

  await page.goto('/admin/coupons');
  await submit('a:has-text("E2E-EDIT")');
  await page.waitForURL(`**/admin/coupons/${id}`);
  assert.match(await page.textContent('dl.facts'), /Times used\s*0/);

  // Bad input first: the message next to the field, the form refilled.
  await page.fill('#f-value', '150');
  await submit('button:has-text("Save coupon")');
  await page.locator('#f-value-error').waitFor();
  assert.match(await page.textContent('#f-value-error'), /percentage/);
  assert.equal(await page.inputValue('#f-value'), '150');

  await page.fill('#f-value', '25');
  await page.fill('#f-usageLimitPerCustomer', '1');
  await page.fill('#f-description', 'Launch offer, now 25%');
  await submit('button:has-text("Save coupon")');
  await page.locator('.flash', { hasText: 'Coupon E2E-EDIT saved.' }).waitFor();
  assert.equal(await page.inputValue('#f-value'), '25');
  await shot('admin-coupon-edit');

  const read = await api('GET', `/api/coupons/${id}`);
  assert.equal(read.status, 200);
  assert.equal(read.json.data.value, 25);
  assert.equal(read.json.data.usageLimitPerCustomer, 1);
  assert.equal(read.json.data.description, 'Launch offer, now 25%');
});

test("a currency's rate is changed, and the default currency's delete is refused with the API's message", { timeout: 240_000 }, async () => {
  await page.goto('/admin/settings');
  const add = page.locator('form[action="/admin/settings/currencies"]');
  await add.locator('input[name=code]').fill('EUR');
  await add.locator('input[name=name]').fill('Euro');
  await add.locator('input[name=symbol]').fill('€');
  await add.locator('input[name=exchangeRate]').fill('0.9');
  await submit('button:has-text("Add currency")');
  await page.locator('.flash', { hasText: 'Currency EUR added.' }).waitFor();

  await submit('a[href="/admin/settings/currencies/EUR"]');
  await page.waitForURL('**/admin/settings/currencies/EUR');
  await page.fill('#f-exchangeRate', '0.95');
  await page.fill('#f-name', 'Euro (EU)');
  await submit('button:has-text("Save currency")');
  await page.locator('.flash', { hasText: 'Currency EUR saved.' }).waitFor();
  const eur = await api('GET', '/api/settings/currencies/EUR');
  assert.equal(eur.json.data.exchangeRate, 0.95);
  assert.equal(eur.json.data.name, 'Euro (EU)');

  const settings = await api('GET', '/api/settings');
  const code = settings.json.data.defaultCurrency;
  await page.goto(`/admin/settings/currencies/${code}`);
  await submit('button:has-text("Delete currency")');
  await page.locator('[role=alert]', { hasText: `${code} is the default currency and cannot be deleted` }).waitFor();
  await shot('admin-settings-currency-edit');
  assert.equal((await api('GET', `/api/settings/currencies/${code}`)).status, 200);
});

test('a tax rate is added, then edited', { timeout: 240_000 }, async () => {
  await page.goto('/admin/settings');
  const add = page.locator('form[action="/admin/settings/taxes"]');
  await add.locator('input[name=name]').fill('California sales tax');
  await add.locator('input[name=country]').fill('US');
  await add.locator('input[name=region]').fill('CA');
  await add.locator('input[name=rate]').fill('7.25');
  await submit('button:has-text("Add tax rate")');
  await page.locator('.flash', { hasText: 'added' }).waitFor();

  const list = await api('GET', '/api/settings/taxes?country=US&region=CA');
  const id = list.json.data[0].id;
  await submit(`a[href="/admin/settings/taxes/${id}"]`);
  await page.waitForURL(`**/admin/settings/taxes/${id}`);
  await page.fill('#f-rate', '8.875');
  await page.check('#f-shippingTaxable');
  await shot('admin-settings-tax-edit');
  await submit('button:has-text("Save tax rate")');
  await page.locator('.flash', { hasText: 'saved' }).waitFor();
  await shot('admin-settings');

  const read = await api('GET', `/api/settings/taxes/${id}`);
  assert.equal(read.json.data.rate, 8.875);
  assert.equal(read.json.data.shippingTaxable, true);
});
