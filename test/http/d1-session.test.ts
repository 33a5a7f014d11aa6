import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { cookieIn, csrfIn, get, pair, post, signIn } from '../admin/panel-client';
import { adminKey, api, db, expectError, uid } from '../helpers';

// Each request runs in a D1 session (src/d1/session.ts). Locally there is one database,
// so what is tested is the plumbing: the start each route gets (X-D1-Session, a development header),
// and the bookmark's round trip. A read with the bookmark of a write sees the write.

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

describe('D1 sessions and bookmarks', () => {
  it('starts reads unconstrained and writes on the primary, and gives every answer a bookmark', async () => {
    const read = await api('/api/products?limit=1');
    expect(read.headers.get('X-D1-Session')).toBe('first-unconstrained');
    expect(read.headers.get('X-D1-Bookmark')).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
    const write = await api('/api/products', { method: 'POST', key, json: { name: `Session ${uid()}`, price: 3, status: 'active' } });
    expect(write.status).toBe(201);
    expect(write.headers.get('X-D1-Session')).toBe('first-primary');
    // A write that is refused still decided on the primary's data.
    const refused = await api('/api/products/prod_missing', { method: 'DELETE', key });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('X-D1-Session')).toBe('first-primary');
  });

  it('reads at least as fresh as the bookmark it is given: a client sees its own write', async () => {
    const write = await api('/api/products', { method: 'POST', key, json: { name: `Fresh ${uid()}`, price: 4, status: 'active' } });
    const bookmark = write.headers.get('X-D1-Bookmark')!;
    const read = await api(`/api/products/${write.body.data.id}`, { headers: { 'X-D1-Bookmark': bookmark } });
    expect(read.status).toBe(200);
    expect(read.headers.get('X-D1-Session')).toBe('bookmark');
    expect(read.body.data.name).toBe(write.body.data.name);
    // The answer's bookmark is never older than the one sent.
    expect(read.headers.get('X-D1-Bookmark')! >= bookmark).toBe(true);
  });

  it('refuses a malformed bookmark with 400 instead of reading from anywhere', async () => {
    const res = await api('/api/products', { headers: { 'X-D1-Bookmark': 'not a bookmark' } });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.body.error.details).toEqual([{ field: 'X-D1-Bookmark', code: 'invalid_format', message: 'X-D1-Bookmark is not a well-formed bookmark' }]);
  });

  it("keeps the admin panel's bookmark in a cookie after a write, so the page it redirects to reads with it", async () => {
    const email = `session-${uid()}@example.com`;
    await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin' });
    const { session } = await signIn(email, 'correct horse battery');
    const page = await get('/admin/brands', session);
    const saved = await post('/admin/brands', { _csrf: csrfIn(page.html), name: `Brand ${uid()}` }, session);
    expect(saved.res.status).toBe(303);
    const bookmark = pair(cookieIn(saved.res, 'd1_bookmark'));
    expect(bookmark).toMatch(/^d1_bookmark=[0-9a-f-]+$/);
    const after = await get('/admin/brands', `${session}; ${bookmark}`);
    expect(after.res.headers.get('X-D1-Session')).toBe('bookmark');
  });
});
