// What every browser test of the panel shares: the Worker started with its own state (server.mjs),
// Debian's Chromium driven by Playwright (playwright-core) with one page that accepts dialogs,
// screenshots into docs/screenshots, form submission, sign-in, the API beside the browser, and the
// audit log read as a user reads it.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startWorker } from './server.mjs';

export const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');
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

/** Chromium, headless, with a fresh profile (Playwright gives it a new temporary --user-data-dir). */
export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Starts the Worker (`worker`: startWorker's options) and Chromium, and resolves the panel a test
 * drives: `{ worker, browser, context, page, shot, submit, signIn, signOut, api, close }`.
 * `wait` is the default wait of locators, `navigationWait` of navigations: a loaded two-core
 * machine compiles the Worker on its first requests, so they are generous.
 */
export async function openPanel({ worker: workerOptions = {}, wait = 60_000, navigationWait = wait } = {}) {
  await mkdir(SHOTS, { recursive: true });
  const worker = await startWorker(workerOptions);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, baseURL: worker.base });
  context.setDefaultTimeout(wait);
  context.setDefaultNavigationTimeout(navigationWait);
  const page = await context.newPage();
  page.on('dialog', (dialog) => dialog.accept());

  /** Clicks the (first) element `selector` finds and waits for the page it leads to. */
  async function submit(selector) {
    const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame() });
    await page.locator(selector).first().click();
    await navigated;
    await page.waitForLoadState('load');
  }

  return {
    worker,
    browser,
    context,
    page,
    submit,
    /** A full-page screenshot into docs/screenshots/<name>.png. */
    shot: (name, target = page) => target.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true }),
    /** Signs in through the panel's form and waits for the dashboard. */
    async signIn(email, password) {
      await page.goto('/admin/sign-in');
      await page.fill('input[name=email]', email);
      await page.fill('input[name=password]', password);
      await submit('form[action^="/admin/sign-in"] button[type=submit]');
      await page.locator('h1', { hasText: 'Dashboard' }).waitFor();
    },
    async signOut() {
      await submit('form[action="/admin/sign-out"] button[type=submit]');
      await page.waitForURL('**/admin/sign-in');
    },
    /** The API beside the browser, as a client calls it: `{ status, json }`. */
    async api(method, url, credential, body) {
      const res = await fetch(`${worker.base}${url}`, {
        method,
        headers: { ...(credential ? { Authorization: `Bearer ${credential}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    async close() {
      await browser.close().catch(() => {});
      await worker.stop();
    },
  };
}

/**
 * The audit log as the panel shows it, filtered through its form's parameters (`resource`,
 * `action`, `actor`, `resource_id`): one `{ id, action, resource, resourceId, fields, actor }` per
 * row, newest first.
 */
export async function auditRows(page, filters = {}) {
  const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== undefined));
  await page.goto(`/admin/audit-log?${query}`);
  await page.locator('h1', { hasText: 'Audit log' }).waitFor();
  return page.locator('main tbody tr').evaluateAll((rows) =>
    rows
      .filter((row) => row.querySelectorAll('td').length >= 6)
      .map((row) => {
        const cells = [...row.querySelectorAll('td')];
        return {
          id: cells[0].textContent.trim(),
          actor: cells[2].textContent.trim(),
          action: cells[3].textContent.trim(),
          resource: cells[4].firstChild?.textContent.trim() ?? '',
          resourceId: cells[4].querySelector('code')?.textContent.trim() ?? '',
          fields: cells[5].textContent.trim(),
        };
      }),
  );
}

/** Opens one entry of the audit log; resolves the rows of its changed fields as `{ field, before, after }`. */
export async function auditChanges(page, entryId) {
  await page.goto(`/admin/audit-log/${entryId}`);
  return page.locator('tr.changed').evaluateAll((rows) =>
    rows.map((row) => ({
      field: row.querySelector('mark')?.textContent.trim() ?? row.querySelector('th, td')?.textContent.trim() ?? '',
      before: row.querySelector('td.before')?.textContent.trim() ?? '',
      after: row.querySelector('td.after')?.textContent.trim() ?? '',
    })),
  );
}
