import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { newIp } from './client-addresses';

// This project runs with RATE_LIMIT_ANONYMOUS=5 (vitest.config.ts); here the window is shortened to 2 s,
// as the client libraries' live tests run it, so a 429 clears within seconds.
const app = createApp();
const ip = newIp();

async function get(settings: Record<string, string>) {
  const ctx = createExecutionContext();
  const request = new Request('http://store.test/api/products', { headers: { 'CF-Connecting-IP': ip } });
  const response = await app.fetch(request, { ...env, RATE_LIMIT_LEASE_SECONDS: '1', ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe('RATE_LIMIT_WINDOW_SECONDS', () => {
  it('shortens the sliding window: the 429 says so, and clears once Retry-After has passed', async () => {
    const window = { RATE_LIMIT_WINDOW_SECONDS: '2' };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get(window));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0]!.headers.get('RateLimit-Policy')).toBe('"per-2s";q=5;w=2');
    const limited = answers[5]!;
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(/per 2 seconds/);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    expect((await get(window)).status).toBe(200);
  });
});
