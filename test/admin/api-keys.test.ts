import { describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { api, db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

async function adminSession() {
  const email = `keys-${uid()}@example.com`;
  const password = 'correct horse battery';
  await createUser(db(), { email, password, roleId: 'admin', vendorId: null });
  return (await signIn(email, password)).session;
}

const PAGE = '/admin/settings/api-keys';
const mintThrough = async (session: string, form: Record<string, string>) => {
  const token = csrfIn((await get(PAGE, session)).html);
  return post(PAGE, { _csrf: token, expiresAt: '', vendorId: '', allowedOrigins: '', role: 'admin', ...form }, session);
};
const shownKey = (html: string) => /<code id="new-key-value">([^<]+)<\/code>/.exec(html)?.[1];

describe('admin API keys: the three kinds', () => {
  it('mints a publishable key for its origins, shown once, that works from them and nowhere else', async () => {
    const session = await adminSession();
    const minted = await mintThrough(session, { name: `Storefront ${uid()}`, kind: 'publishable', allowedOrigins: 'https://shop.example\r\nhttps://*.shop.example' });
    expect(minted.res.status).toBe(201);
    const key = shownKey(minted.html)!;
    expect(key).toMatch(/^pk_/);
    expect(minted.html).toContain('publishable: https://shop.example, https://*.shop.example');
    expect((await api('/api/products', { key, headers: { Origin: 'https://www.shop.example' } })).status).toBe(200);
    expect((await api('/api/products', { key, headers: { Origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('refuses a publishable key without origins next to the field', async () => {
    const session = await adminSession();
    const refused = await mintThrough(session, { name: `No origins ${uid()}`, kind: 'publishable' });
    expect(refused.res.status).toBe(422);
    expect(refused.html).toContain('a publishable key needs at least one origin');
    expect(shownKey(refused.html)).toBeUndefined();
  });

  it("mints a storefront server's key that may name its shopper in X-Buyer-IP, and nothing more", async () => {
    const session = await adminSession();
    const minted = await mintThrough(session, { name: `Next.js ${uid()}`, kind: 'storefront server' });
    expect(minted.res.status).toBe(201);
    const key = shownKey(minted.html)!;
    expect(key).toMatch(/^sk_/);
    expect((await api('/api/products', { key, headers: { 'X-Buyer-IP': '198.51.100.7' } })).status).toBe(200);
    expect((await api('/api/orders', { key })).status).toBe(403);
  });
});
