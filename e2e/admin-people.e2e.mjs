// Browser test of the admin panel's people pages (roles and staff users) and of finding their writes
// in the audit log: Playwright drives Debian's Chromium against the Worker (e2e/panel-browser.mjs).
// Run: node --test e2e/admin-people.e2e.mjs
// Screenshots: docs/screenshots/admin-roles.png, admin-role-edit.png, admin-users.png, admin-users-new.png, admin-user-edit.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditRows, openPanel } from './panel-browser.mjs';

let panel;
let page;
let worker;
const clerk = { name: 'Olive Order-Desk', email: 'olive@example.com', password: 'order desk password 1' };
const state = {};

const shot = (name) => panel.shot(name);
const signIn = (email, password) => panel.signIn(email, password);
const signOut = () => panel.signOut();
const navLinks = () => page.locator('nav[aria-label=Main] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));

before(async () => {
  panel = await openPanel({ wait: 30_000 });
  ({ page, worker } = panel);
});

after(() => panel?.close());

test('an admin creates a role with two permissions from the grid', async () => {
  await signIn(worker.admin.email, worker.admin.password);
  await page.click('nav[aria-label=Main] a[href="/admin/roles"]');
  await page.locator('h1', { hasText: 'Roles' }).waitFor();
  await page.click('text=+ New role');
  await page.locator('h1', { hasText: 'New role' }).waitFor();

  // A blank name (spaces pass the browser's own check) is refused next to the field, the ticked boxes kept.
  await page.fill('input[name=name]', '   ');
  await page.check('input[name=permissions][value="products:read"]');
  await page.check('input[name=permissions][value="orders:read"]');
  await page.click('form[action="/admin/roles/new"] button[type=submit]');
  await page.locator('#f-name-error').waitFor();
  assert.ok(await page.isChecked('input[name=permissions][value="orders:read"]'));

  await page.fill('input[name=name]', 'order-desk');
  await page.fill('input[name=description]', 'Reads products and orders, answers customers.');
  await page.click('form[action="/admin/roles/new"] button[type=submit]');
  await page.waitForURL(/\/admin\/roles\/role_/);
  assert.match(await page.textContent('.flash.ok'), /Role order-desk created/);
  state.roleId = new URL(page.url()).pathname.split('/').pop();
  assert.ok(await page.isChecked('input[value="products:read"]'));
  assert.ok(await page.isChecked('input[value="orders:read"]'));
  assert.ok(!(await page.isChecked('input[value="orders:write"]')));
  await shot('admin-role-edit');

  await page.goto('/admin/roles');
  await page.locator('a', { hasText: 'order-desk' }).waitFor();
  await shot('admin-roles');
});

test('an admin creates a staff user with that role', async () => {
  await page.click('nav[aria-label=Main] a[href="/admin/users"]');
  await page.locator('h1', { hasText: 'Staff users' }).waitFor();
  await page.click('text=+ New staff user');
  await page.locator('h1', { hasText: 'New staff user' }).waitFor();
  await page.fill('input[name=name]', clerk.name);
  await page.fill('input[name=email]', clerk.email);
  await page.fill('input[name=password]', clerk.password);
  await page.selectOption('select[name=role]', state.roleId);
  await shot('admin-users-new');
  await page.click('form[action="/admin/users/new"] button[type=submit]');
  await page.waitForURL(/\/admin\/users\/user_/);
  assert.match(await page.textContent('.flash.ok'), new RegExp(`User ${clerk.email} created`));
  await shot('admin-user-edit');

  await page.goto(`/admin/users?role=${state.roleId}`);
  await page.locator('td', { hasText: clerk.email }).waitFor();
  await page.goto('/admin/users');
  await page.locator('td', { hasText: clerk.email }).waitFor();
  await shot('admin-users');
});

test('the new user sees only its areas, and roles are refused; then the admin signs back in', async () => {
  await signOut();
  await signIn(clerk.email, clerk.password);
  // Returns, price lists and gift cards have permissions of their own: orders:read and products:read reach none of them.
  assert.deepEqual(await navLinks(), ['/admin', '/admin/orders', '/admin/shipments', '/admin/products']);
  const refused = await page.goto('/admin/roles');
  assert.equal(refused.status(), 403);
  assert.equal(await page.textContent('h1'), 'Not allowed');
  assert.equal((await page.goto('/admin/users')).status(), 403);
  const products = await page.goto('/admin/products');
  assert.equal(products.status(), 200);

  await signOut();
  await signIn(worker.admin.email, worker.admin.password);
  const links = await navLinks();
  assert.ok(links.includes('/admin/roles') && links.includes('/admin/users'), 'the admin sees every area again');
});

test('the audit log holds every write of the flow, by its actor, and none by the narrow user', async () => {
  const roles = await auditRows(page, { resource: 'role', action: 'create' });
  const role = roles.find((r) => r.resourceId === state.roleId);
  assert.ok(role, 'the role created from the grid');
  assert.match(role.actor, new RegExp(worker.admin.email.replace('.', '\\.')));
  assert.match(role.fields, /permissions/);

  const users = await auditRows(page, { resource: 'user', action: 'create' });
  const user = users.find((r) => /user_/.test(r.resourceId) && r.actor.includes(worker.admin.email));
  assert.ok(user, 'the staff user created with the role');
  await panel.shot('admin-audit-log-users');

  // The role's permissions, shown field by field: a created row's values are its "after".
  await page.goto(`/admin/audit-log/${role.id}`);
  await page.locator('td', { hasText: 'products:read' }).first().waitFor();

  // The narrow user signed in and read, but wrote nothing.
  assert.deepEqual(await auditRows(page, { actor: clerk.email }), []);
});
