import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { randomBase62, timingSafeEqualBytes } from '../lib/crypto';
import { cookieOptions } from './session';

/** The hidden field every form of the panel carries. */
export const CSRF_FIELD = '_csrf';
/** Before sign-in there is no session: the sign-in form's token is doubled in this cookie instead. */
const SIGN_IN_COOKIE = 'admin_csrf';

const bytes = (text: string) => new TextEncoder().encode(text);

export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqualBytes(bytes(given), bytes(expected));
}

/**
 * A state-changing request must come from the panel's own pages: an Origin header, when the browser
 * sends one, must be this origin; without it, Sec-Fetch-Site must not say cross-site. (Browsers send
 * Origin on every POST form; the token check below is the second, independent line.)
 */
export function sameOrigin(c: Context<AppEnv>): boolean {
  const origin = c.req.header('Origin');
  if (origin !== undefined) return origin === new URL(c.req.url).origin;
  const site = c.req.header('Sec-Fetch-Site');
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** The sign-in form's token: reuses the cookie's when there is one, so two open tabs both work. */
export function signInToken(c: Context<AppEnv>): string {
  const current = getCookie(c, SIGN_IN_COOKIE);
  if (current && /^[0-9A-Za-z]{32}$/.test(current)) return current;
  const token = randomBase62(32);
  setCookie(c, SIGN_IN_COOKIE, token, cookieOptions(c, 60 * 60));
  return token;
}

export function validSignInToken(c: Context<AppEnv>, given: unknown): boolean {
  const expected = getCookie(c, SIGN_IN_COOKIE);
  return Boolean(expected) && sameToken(given, expected!);
}
