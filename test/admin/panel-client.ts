import { workerFetch } from '../worker-fetch';

/** The admin panel over HTTP, as a browser uses it: cookies, form posts, the Origin header. */
export const ORIGIN = 'http://store.test';

export async function get(path: string, cookie = '') {
  const res = await workerFetch(new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' }));
  return { res, html: await res.text() };
}

export async function post(path: string, form: Record<string, string>, cookie: string, headers: Record<string, string> = { Origin: ORIGIN }) {
  const res = await workerFetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, ...headers },
      body: new URLSearchParams(form),
      redirect: 'manual',
    }),
  );
  return { res, html: await res.text() };
}

export const csrfIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
export const cookieIn = (res: Response, name: string) => res.headers.getAll('Set-Cookie').find((c: string) => c.startsWith(`${name}=`));
export const pair = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';

export async function signIn(email: string, password: string, ip = '192.0.2.10') {
  const form = await get('/admin/sign-in');
  const csrfCookie = pair(cookieIn(form.res, 'admin_csrf'));
  const { res, html } = await post('/admin/sign-in', { _csrf: csrfIn(form.html), email, password, next: '/admin' }, csrfCookie, { Origin: ORIGIN, 'CF-Connecting-IP': ip });
  return { res, html, session: pair(cookieIn(res, 'admin_session')) };
}

/** Posts a form of the panel with the CSRF token of the page it is on (`from`). */
export async function submit(from: string, to: string, form: Record<string, string>, session: string) {
  return post(to, { _csrf: csrfIn((await get(from, session)).html), ...form }, session);
}

/** The flash message a redirect left for the next page. */
export function flashOf(res: Response) {
  const raw = cookieIn(res, 'admin_flash')?.split(';')[0]?.split('=').slice(1).join('=');
  return raw ? (JSON.parse(decodeURIComponent(decodeURIComponent(raw))) as { kind: string; text: string }) : null;
}

/** The message shown under a form's field, if any. */
export const errorOf = (html: string, field: string) => new RegExp(`id="f-${field}-error">([^<]*)<`).exec(html)?.[1];
