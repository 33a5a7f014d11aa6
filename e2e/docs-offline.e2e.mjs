// /docs with no network beyond the Worker: Swagger UI must come from the Worker itself (src/docs/), not a
// CDN. Every request to another origin is aborted (Playwright routing) and host names resolve nowhere
// (Chromium --host-resolver-rules), and the test fails if the page even tried one.
// Run: node --test e2e/docs-offline.e2e.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchChromium } from './panel-browser.mjs';
import { startWorker } from './server.mjs';

// Every host name but the Worker's address fails to resolve.
const NO_DNS = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

let worker;
let browser;
let context;

before(async () => {
  worker = await startWorker();
  browser = await launchChromium([NO_DNS]);
  context = await browser.newContext({ viewport: { width: 1280, height: 860 }, baseURL: worker.base });
});

after(async () => {
  await browser?.close();
  await worker?.stop();
});

test('/docs renders the operations with every request answered by the Worker', async () => {
  const origin = new URL(worker.base).origin;
  const elsewhere = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    elsewhere.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  const failed = [];
  page.on('requestfailed', (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`));

  // A busy machine may take a while to load the 1.5 MB bundle: wait for the document, then for the rendering.
  const res = await page.goto('/docs', { waitUntil: 'domcontentloaded', timeout: 120_000 });
  assert.equal(res.status(), 200);
  // The tags come collapsed (docExpansion 'none': 137 operations expanded at once stall Swagger UI);
  // opening Products shows the operation that lists them, path and summary: the spec was fetched and rendered.
  await page
    .locator('.opblock-tag', { hasText: /^Products/ })
    .first()
    .click({ timeout: 90_000 });
  const listProducts = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/api/products"]') }).first();
  await listProducts.waitFor({ state: 'visible', timeout: 60_000 });
  assert.match((await listProducts.textContent()) ?? '', /List products/);
  await page.waitForLoadState('networkidle', { timeout: 90_000 });

  assert.deepEqual(elsewhere, [], 'no request left the Worker');
  assert.deepEqual(failed, [], 'no request failed');
});

test('the docs assets are the pinned swagger-ui-dist files, and nothing else of the package is reachable', async () => {
  for (const [file, type] of [
    ['swagger-ui-bundle.js', /javascript/],
    ['swagger-ui.css', /css/],
  ]) {
    const res = await fetch(`${worker.base}/docs/assets/swagger-ui-dist/${file}`);
    assert.equal(res.status, 200, file);
    assert.match(res.headers.get('content-type') ?? '', type, file);
    assert.ok((await res.arrayBuffer()).byteLength > 10_000, file);
  }
  for (const url of [
    '/docs/assets/swagger-ui-dist/package.json',
    '/docs/assets/swagger-ui-dist/swagger-ui-bundle.js.map',
    '/swagger-ui-bundle.js',
    '/index.html',
    '/package.json',
  ]) {
    const res = await fetch(`${worker.base}${url}`);
    await res.arrayBuffer();
    assert.equal(res.status, 404, url);
  }
});
