// Browser test of the admin panel's notification templates, message log and audit log: Playwright
// (playwright-core) drives Debian's Chromium against the Worker started locally with its own state
// (e2e/server.mjs). Run: node --test e2e/admin-notifications.e2e.mjs
// Writes docs/screenshots/admin-{templates,template-edit,notification-log*,audit-log,audit-entry}.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPanel } from './panel-browser.mjs';

// A loaded two-core machine: generous waits on locators, never fixed sleeps.
const WAIT = 30_000;
const TEMPLATE = 'tmpl_order_confirmation_email';
const NEW_SUBJECT = 'E2E: thank you for order {{orderNumber}}';

let panel;
let worker;
let page;
const state = {};

const shot = (name) => panel.shot(name);
const api = (method, url, token, body) => panel.api(method, url, token, body);

/** Polls until `check` returns something truthy (the queues send messages after the response). */
async function until(what, check, ms = 90_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

before(async () => {
  panel = await openPanel({ wait: WAIT, navigationWait: WAIT * 2 });
  ({ worker, page } = panel);
  const login = await api('POST', '/api/auth/login', null, { email: worker.admin.email, password: worker.admin.password });
  assert.equal(login.status, 200, JSON.stringify(login.json));
  state.token = login.json.data.token;
});

after(() => panel?.close());

test('signing in through the form', async () => {
  await page.goto('/admin/notifications');
  await page.waitForURL(/\/admin\/sign-in\?next=/);
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', worker.admin.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/admin/notifications');
  assert.equal(await page.textContent('h1'), 'Notification templates');
});

test('a template: its subject edited, previewed with sample data, then reset to the default', async () => {
  await page.goto('/admin/notifications');
  await page.locator(`a[href="/admin/notifications/${TEMPLATE}"]`).waitFor();
  await shot('admin-templates');

  await page.click(`a[href="/admin/notifications/${TEMPLATE}"]`);
  await page.waitForURL(`**/admin/notifications/${TEMPLATE}`);
  const original = await page.inputValue('input[name=subject]');
  assert.match(original, /\{\{orderNumber\}\}/);
  // The variables it may use are listed beside the form.
  assert.ok(await page.locator('aside dt', { hasText: '{{shippingAddress}}' }).isVisible());

  await page.fill('input[name=subject]', NEW_SUBJECT);
  await page.click('button:text("Save template")');
  await page.locator('.flash.ok', { hasText: 'Template saved' }).waitFor();
  assert.equal(await page.inputValue('input[name=subject]'), NEW_SUBJECT);

  await page.click('button:text("Preview with sample data")');
  const preview = page.locator('#preview-result');
  await preview.waitFor();
  assert.equal((await preview.locator('.subject').textContent()).trim(), 'E2E: thank you for order #1001');
  // The HTML part is shown in a sandboxed frame, rendered with the same sample data.
  const frame = page.frameLocator('#preview-result iframe');
  await frame.locator('body', { hasText: 'order #1001' }).waitFor();
  await page.locator('#preview-result iframe').scrollIntoViewIfNeeded();
  await shot('admin-template-edit');

  // A variable the event does not give is refused next to its field, as the API does.
  await page.fill('input[name=subject]', 'Your card {{creditCard}}');
  await page.click('button:text("Save template")');
  await page.locator('#f-subject-error', { hasText: '{{creditCard}}' }).waitFor();

  await page.click('button:text("Reset to default")');
  await page.locator('.flash.ok', { hasText: 'Template reset to its default' }).waitFor();
  assert.equal(await page.inputValue('input[name=subject]'), original);
  const api_ = await api('GET', `/api/notifications/templates/${TEMPLATE}`, state.token);
  assert.equal(api_.json.data.subject, original);
});

test('the message log: an order placed through the API, its email found by channel', async () => {
  const product = await api('POST', '/api/products', state.token, { name: 'E2E Notebook', price: 9.5, stock: 10, status: 'active' });
  assert.equal(product.status, 201, JSON.stringify(product.json));
  const placed = await api('POST', '/api/orders', state.token, { email: 'reader@example.com', lines: [{ variantId: product.json.data.variants[0].id, quantity: 1 }] });
  assert.equal(placed.status, 201, JSON.stringify(placed.json));
  state.orderNumber = placed.json.data.number;
  // A sign-up sends the marketing welcome email too.
  const registered = await api('POST', '/api/auth/register', null, { email: 'new.customer@example.com', password: 'correct horse battery', name: 'Grace Hopper' });
  assert.equal(registered.status, 201, JSON.stringify(registered.json));
  // The store-events queue plans the confirmation, the notifications queue "sends" it to the outbox.
  await until('the order confirmation to be sent', async () => {
    const sent = await api('GET', '/api/notifications?status=sent', state.token);
    const to = new Set((sent.json?.data ?? []).map((m) => m.recipient));
    return to.has('reader@example.com') && to.has('new.customer@example.com');
  });

  await page.goto('/admin/notifications/log');
  await page.selectOption('select[name=channel]', 'email');
  await page.click('form.filters button[type=submit]');
  await page.waitForURL(/\/admin\/notifications\/log\?.*channel=email/);
  const row = page.locator('tbody tr', { hasText: 'reader@example.com' });
  await row.waitFor();
  assert.match(await row.textContent(), /order_confirmation/);
  await shot('admin-notification-log');

  await row.locator('a').first().click();
  await page.waitForURL(/\/admin\/notifications\/log\/.+/);
  assert.match(await page.textContent('main'), new RegExp(`order #${state.orderNumber}`));
  assert.ok(await page.locator('.badge.b-sent').first().isVisible());
  await page
    .frameLocator('iframe.html-preview')
    .locator('body', { hasText: `#${state.orderNumber}` })
    .waitFor();
  // Chromium paints a sandboxed frame (its own process) only once it has been in view.
  await page.locator('iframe.html-preview').scrollIntoViewIfNeeded();
  await shot('admin-notification-log-message');

  // No SMS went out: the customer gave no phone number.
  await page.goto('/admin/notifications/log');
  await page.selectOption('select[name=channel]', 'sms');
  await page.click('form.filters button[type=submit]');
  await page.waitForURL(/channel=sms/);
  await page.locator('text=No messages match.').waitFor();
});

test("the audit log: filtered by resource, the template edit's before and after side by side", async () => {
  await page.goto('/admin/audit-log');
  await page.selectOption('select[name=resource]', 'notification_template');
  await page.click('form.filters button[type=submit]');
  await page.waitForURL(/resource=notification_template/);
  const rows = page.locator('tbody tr');
  await rows.first().waitFor();
  // Newest first: the reset, then the edit.
  assert.equal(await rows.count(), 2);
  assert.match(await rows.nth(1).textContent(), new RegExp(worker.admin.email));
  await shot('admin-audit-log');

  await rows.nth(1).locator('a').first().click();
  await page.waitForURL(/\/admin\/audit-log\/\d+$/);
  const changed = page.locator('tr.changed', { has: page.locator('mark', { hasText: 'subject' }) });
  await changed.waitFor();
  assert.match(await changed.locator('td.before').textContent(), /\{\{orderNumber\}\}/);
  assert.equal((await changed.locator('td.after').textContent()).trim(), NEW_SUBJECT);
  // Only the subject changed; its row comes first.
  assert.equal(await page.locator('tr.changed').count(), 1);
  await shot('admin-audit-entry');
});
