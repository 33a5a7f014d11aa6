import { describe, expect, it } from 'vitest';
import { workerFetch } from '../worker-fetch';
import { uid } from '../helpers';
import { csrfIn, get, ORIGIN, signIn } from './panel-client';
import { createUser } from '../../src/modules/users/users.service';
import { db } from '../helpers';
import { imports } from '../../src/db/schema';

// The panel's product import: check only, import, and the progress page that follows the queue.

async function admin() {
  const email = `importer-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin', vendorId: null });
  return (await signIn(email, 'correct horse battery')).session;
}

async function postFile(session: string, csrf: string, csv: string, step: string) {
  const form = new FormData();
  form.set('_csrf', csrf);
  form.set('step', step);
  form.set('file', new File([csv], 'products.csv', { type: 'text/csv' }));
  const res = await workerFetch(new Request(`${ORIGIN}/admin/products/import`, { method: 'POST', body: form, headers: { Cookie: session, Origin: ORIGIN }, redirect: 'manual' }));
  return { res, html: await res.text() };
}

describe('admin: product import', () => {
  it('checks a file without writing, imports it, and follows the import to the end', async () => {
    const session = await admin();
    const tag = uid();
    const form = await get('/admin/products/import', session);
    expect(form.res.status).toBe(200);
    expect((await get('/admin/products', session)).html).toContain('href="/admin/products/import"');
    const csv = `name,price,sku,variant_stock\nLamp ${tag},30,LAMP-${tag},4\nBroken ${tag},x,BROKEN-${tag},1\n`;
    const checked = await postFile(session, csrfIn(form.html), csv, 'check');
    expect(checked.res.status).toBe(200);
    expect(checked.html).toContain('Checked: nothing was written');
    expect(checked.html).toContain('2 products, 1 to create, 0 to update,');
    expect(checked.html).toContain('<td class="num">3</td><td>price</td>');
    const started = await postFile(session, csrfIn(form.html), csv, 'import');
    expect(started.res.status).toBe(303);
    const location = started.res.headers.get('Location')!;
    expect(location).toMatch(/^\/admin\/products\/import\/imp_/);
    let page = await get(location, session);
    for (let i = 0; i < 100 && !page.html.includes('<span class="badge b-completed">completed</span>'); i++) {
      expect(page.res.headers.get('Refresh')).toBe('2');
      await new Promise((r) => setTimeout(r, 100));
      page = await get(location, session);
    }
    expect(page.res.headers.get('Refresh')).toBeNull();
    expect(page.html).toContain('<progress id="import-progress" value="2" max="2">');
    expect(page.html).toMatch(/<dt>Created<\/dt><dd>1<\/dd>/);
    expect(page.html).toMatch(/<dt>Failed<\/dt><dd>1<\/dd>/);
  });

  it('shows why a stopped import failed, and stops refreshing', async () => {
    const session = await admin();
    const id = `imp_test${uid()}`;
    const ts = new Date().toISOString();
    const reason =
      'stopped: the credential that started the import can no longer import products (This API key has been revoked); the products not written by then were not imported';
    await db().insert(imports).values({
      id,
      status: 'failed',
      reason,
      format: 'store',
      actor: 'key:key_gone',
      vendorId: null,
      rows: 100,
      products: 100,
      chunks: 4,
      chunksDone: 1,
      rowsDone: 25,
      created: 25,
      completedAt: ts,
      createdAt: ts,
      updatedAt: ts,
    });
    const page = await get(`/admin/products/import/${id}`, session);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('Refresh')).toBeNull();
    expect(page.html).toContain('<span class="badge b-failed">failed</span>');
    expect(page.html).toContain('This API key has been revoked');
    expect(page.html).not.toContain('This page refreshes');
  });

  it('asks for a file when none is sent', async () => {
    const session = await admin();
    const form = await get('/admin/products/import', session);
    const fd = new FormData();
    fd.set('_csrf', csrfIn(form.html));
    fd.set('step', 'import');
    const res = await workerFetch(new Request(`${ORIGIN}/admin/products/import`, { method: 'POST', body: fd, headers: { Cookie: session, Origin: ORIGIN }, redirect: 'manual' }));
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('choose a CSV file');
  });
});
