import { workerFetch } from '../worker-fetch';
import type { Principal } from '../../src/lib/access';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { db, uid } from '../helpers';
import { cookieIn, csrfIn, get, ORIGIN, pair, signIn } from './panel-client';

/** Shared fixtures of the people tests (roles and staff users in the admin panel). */

export const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };
export const PASSWORD = 'correct horse battery';

export async function role(permissions: string[], name = `role-${uid()}`) {
  return createRole(db(), ROOT, { name, permissions });
}

/** A staff user of `roleId`, signed in to the panel: its session cookie and a CSRF token. */
export async function signedIn(roleId: string, vendorId: string | null = null) {
  const email = `${roleId.replace(/[^a-z0-9]/gi, '')}-${uid()}@example.com`;
  const row = await createUser(db(), { email, password: PASSWORD, roleId, vendorId, name: `Staff ${uid()}` });
  const { session } = await signIn(email, PASSWORD);
  const csrf = csrfIn((await get('/admin', session)).html);
  return { id: row.id, email, session, csrf };
}

/** A form POST with repeated names (checkbox groups), as a browser sends it. */
export async function postForm(path: string, entries: [string, string][], cookie: string) {
  const res = await workerFetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: ORIGIN },
      body: new URLSearchParams(entries),
      redirect: 'manual',
    }),
  );
  return { res, html: await res.text() };
}

/** Follows a 303 with the flash cookie it set, as a browser would: the next page's HTML. */
export async function follow(res: Response, session: string) {
  const flash = pair(cookieIn(res, 'admin_flash'));
  return get(res.headers.get('Location')!, [session, flash].filter(Boolean).join('; '));
}

/** The hrefs of the main navigation. */
export const navLinks = (html: string) => [...(/<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

/** The checkbox of one permission in the grid. */
export const permissionBox = (html: string, permission: string) => new RegExp(`<input[^>]*value="${permission.replace('*', '\\*')}"[^>]*>`).exec(html)?.[0] ?? '';
