import type { Context } from 'hono';
import { answerHeader } from '../lib/answer-header';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv, SessionStart } from '../env';
import { ApiError, detailOf } from '../lib/errors';
import { config } from '../config';

/**
 * Every request's queries run in one D1 session (the Sessions API), which is what lets D1 serve
 * reads from a replica near the Worker once read replication is on:
 *
 * - GET and HEAD start `first-unconstrained`: any replica, however far behind (catalogue pages,
 *   lists, a customer's orders);
 * - every other method starts `first-primary`: writes, and the reads that decide them (quotes,
 *   stock, idempotency, a key's revocation) see the latest data;
 * - a request carrying the bookmark of an earlier answer (`X-D1-Bookmark`, or the admin panel's
 *   cookie) reads data at least that fresh: a client sees its own writes.
 *
 * Every answer carries the session's bookmark in `X-D1-Bookmark`; the panel keeps it in a cookie
 * after each of its writes, so the page a form redirects to shows what was just saved.
 */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';
export const BOOKMARK_COOKIE = 'd1_bookmark';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** D1 bookmarks are hex fields joined by dashes; anything else is refused rather than passed to D1. */
const BOOKMARK = /^[0-9a-f]{1,16}(-[0-9a-f]{1,64}){1,7}$/i;

/** Where the request's session starts, and the constraint or bookmark to give withSession(). */
export function sessionStart(c: Context<AppEnv>): { start: SessionStart; constraint: string } {
  if (!READS.has(c.req.method)) return { start: 'first-primary', constraint: 'first-primary' };
  const given = c.req.header(BOOKMARK_HEADER) ?? (c.req.path.startsWith('/admin') ? getCookie(c, BOOKMARK_COOKIE) : undefined);
  if (given === undefined || given === '') return { start: 'first-unconstrained', constraint: 'first-unconstrained' };
  if (!BOOKMARK.test(given)) {
    throw new ApiError('INVALID_REQUEST', `${BOOKMARK_HEADER} is not a bookmark this API gave: send back the X-D1-Bookmark header of an earlier answer, or none`, {
      details: [detailOf({ field: BOOKMARK_HEADER, problem: 'is not a well-formed bookmark', code: 'invalid_format' })],
    });
  }
  return { start: 'bookmark', constraint: given };
}

/** After the handler: the bookmark on the answer, and in the panel's cookie after one of its writes. */
export function sendBookmark(c: Context<AppEnv>, session: D1DatabaseSession) {
  const bookmark = session.getBookmark();
  if (!bookmark) return;
  answerHeader(c, BOOKMARK_HEADER, bookmark);
  if (c.req.path.startsWith('/admin') && !READS.has(c.req.method)) {
    setCookie(c, BOOKMARK_COOKIE, bookmark, { path: '/admin', httpOnly: true, secure: config(c.env).ENVIRONMENT !== 'development', sameSite: 'Lax', maxAge: 3600 });
  }
}
