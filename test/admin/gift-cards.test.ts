import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { giftCards } from '../../src/db/schema';
import { createUser } from '../../src/modules/users/users.service';
import { db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

async function session(roleId: string) {
  const email = `gift-${uid()}@example.com`;
  const password = 'correct horse battery';
  await createUser(db(), { email, password, roleId, vendorId: null });
  return (await signIn(email, password)).session;
}

const PAGE = '/admin/gift-cards';
const shownCode = (html: string) => /<code id="new-gift-card-code">([^<]+)<\/code>/.exec(html)?.[1];

describe('admin gift cards', () => {
  it('issues a card whose code is shown once, lists it by its last four characters, and disables and enables it', async () => {
    const admin = await session('admin');
    const token = csrfIn((await get(PAGE, admin)).html);
    const issued = await post(PAGE, { _csrf: token, amount: '25', currency: 'USD', expiresAt: '', recipientEmail: 'friend@example.com', recipientName: '', message: '' }, admin);
    expect(issued.res.status).toBe(201);
    const code = shownCode(issued.html)!;
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const [row] = await db()
      .select()
      .from(giftCards)
      .where(eq(giftCards.last4, code.slice(-4)));
    expect(row).toMatchObject({ balance: 2500, recipientEmail: 'friend@example.com' });

    const listed = await get(PAGE, admin);
    expect(listed.html).toContain(`…${row!.last4}`);
    expect(listed.html).not.toContain(code);

    await post(`${PAGE}/${row!.id}/disable`, { _csrf: csrfIn(listed.html) }, admin);
    expect((await db().select().from(giftCards).where(eq(giftCards.id, row!.id)))[0]!.status).toBe('disabled');
    await post(`${PAGE}/${row!.id}/enable`, { _csrf: csrfIn(listed.html) }, admin);
    expect((await db().select().from(giftCards).where(eq(giftCards.id, row!.id)))[0]!.status).toBe('active');
  });

  it('refuses a bad amount next to its field, showing no code', async () => {
    const admin = await session('admin');
    const token = csrfIn((await get(PAGE, admin)).html);
    const refused = await post(PAGE, { _csrf: token, amount: '-3', currency: 'USD', expiresAt: '', recipientEmail: '', recipientName: '', message: '' }, admin);
    expect(refused.res.status).toBe(422);
    expect(shownCode(refused.html)).toBeUndefined();
  });
});
