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
    // Sent one after another until the limit answers: at least 5 pass first, however slow the machine
    // (on a loaded one the earliest may already have left the 2 s window, letting a few more through).
    const answers = [];
    while (answers.length < 60 && answers.at(-1)?.status !== 429) answers.push(await get(window));
    const limited = answers.at(-1)!;
    expect(limited.status).toBe(429);
    expect(answers.length).toBeGreaterThanOrEqual(6);
    expect(answers.slice(0, -1).every((a) => a.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('RateLimit-Policy')).toBe('"per-2s";q=5;w=2');
    expect(limited.body.error.message).toMatch(/per 2 seconds/);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    // Cleared once Retry-After has passed: waited as a client is told to, then asked until it answers
    // (a loaded machine may be late), with a generous deadline.
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    const deadline = Date.now() + 15_000;
    let again = await get(window);
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      again = await get(window);
    }
    expect(again.status).toBe(200);
  });
});
