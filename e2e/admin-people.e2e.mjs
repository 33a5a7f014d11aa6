// Browser test of the admin panel's people pages (roles and staff users): Playwright (playwright-core)
// drives Debian's Chromium against the Worker started locally with its own state (e2e/server.mjs).
// Run: node --test e2e/admin-people.e2e.mjs
// Screenshots: docs/screenshots/admin-roles.png, admin-role-edit.png, admin-users.png, admin-users-new.png, admin-user-edit.png.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startWorker } from './server.mjs';

const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
const TIMEOUT = 30_000;

let worker;
let browser;
let page;
const clerk = { name: 'Olive Order-Desk', email: 'olive@example.com', password: 'order desk password 1' };
const state = {};

async function shot(name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function signIn(email, password) {
  await page.goto('/admin/sign-in');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('form[action^="/admin/sign-in"] button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/admin');
  await page.locator('h1', { hasText: 'Dashboard' }).waitFor();
}

async function signOut() {
  await page.click('form[action="/admin/sign-out"] button[type=submit]');
  await page.waitForURL('**/admin/sign-in');
}

const navLinks = () => page.locator('nav[aria-label=Main] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  worker = await startWorker();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, baseURL: worker.base });
  context.setDefaultTimeout(TIMEOUT);
  context.setDefaultNavigationTimeout(TIMEOUT);
  page = await context.newPage();
  page.on('dialog', (dialog) => dialog.accept());
});

after(async () => {
  await browser?.close();
  await worker?.stop();
});

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
  assert.deepEqual(await navLinks(), ['/admin', '/admin/orders', '/admin/products']);
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
