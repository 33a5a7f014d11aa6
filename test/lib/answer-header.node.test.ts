import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answerHeader } from '../../src/lib/answer-header';

// answerHeader (src/lib/answer-header.ts) sets a header after the handler on the answer itself,
// where Hono's c.header() copies the Response; one whose headers are immutable still gets it.

function appAnswering(handler: (c: Context) => Response) {
  const seen: { before?: Response; after?: Response } = {};
  const app = new Hono();
  app.use('*', async (c, next) => {
    answerHeader(c, 'X-Before', 'early');
    await next();
    seen.before = c.res;
    answerHeader(c, 'X-After', 'late');
    answerHeader(c, 'X-Also', 'later');
    seen.after = c.res;
  });
  app.get('/', handler);
  return { app, seen };
}

describe('answerHeader', () => {
  it('sets headers on the answer in place once the handler has answered', async () => {
    const { app, seen } = appAnswering((c) => c.body('{"ok":true}', 200, { 'Content-Type': 'application/json' }));
    const res = await app.request('/');
    expect(seen.after).toBe(seen.before);
    expect(res.headers.get('X-Before')).toBe('early');
    expect(res.headers.get('X-After')).toBe('late');
    expect(res.headers.get('X-Also')).toBe('later');
    expect(await res.text()).toBe('{"ok":true}');
  });

  it('falls back to a copy for an answer whose headers are immutable', async () => {
    const { app } = appAnswering(() => Response.redirect('https://example.com/elsewhere', 302));
    const res = await app.request('/');
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('https://example.com/elsewhere');
    expect(res.headers.get('X-After')).toBe('late');
    expect(res.headers.get('X-Also')).toBe('later');
  });
});
