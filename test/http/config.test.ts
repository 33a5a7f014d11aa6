import { createExecutionContext, createMessageBatch, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app';
import worker from '../../src/index';

// An invalid variable (src/config.ts) is a startup error: every request answers 500 (naming it in
// development; the log names it always), and queue batches and cron runs throw naming it, instead
// of the store running on a default.

const app = createApp();
const misconfigured = () => ({ ...env, RATE_LIMIT_ANONYMOUS: '1o0' });

describe('an invalid variable', () => {
  it('in development, fails each request with a 500 whose message names the variable, and logs it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request('http://store.test/api/health'), misconfigured(), ctx);
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(500);
      const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
      expect(body.success).toBe(false);
      expect(body.error.code).toBe('INTERNAL_ERROR');
      expect(body.error.message).toContain('RATE_LIMIT_ANONYMOUS must be a whole number above 0, not "1o0"');
      expect(logged.mock.calls.map((call) => String(call[0])).join('\n')).toContain('RATE_LIMIT_ANONYMOUS');
    } finally {
      logged.mockRestore();
    }
  });

  it('fails a queue batch and a cron run, naming the variable', async () => {
    const batch = createMessageBatch('store-events', [{ id: 'm1', timestamp: new Date(), attempts: 1, body: { eventId: 'evt_none' } }]);
    await expect(worker.queue(batch as never, misconfigured(), createExecutionContext())).rejects.toThrow(/RATE_LIMIT_ANONYMOUS/);
    const controller = createScheduledController({ cron: '* * * * *', scheduledTime: new Date() });
    await expect(worker.scheduled(controller, misconfigured(), createExecutionContext())).rejects.toThrow(/RATE_LIMIT_ANONYMOUS/);
  });

  it('in production, names neither the variable nor its value to the caller, only in the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request('http://store.test/api/health'), { ...misconfigured(), ENVIRONMENT: 'production' }, ctx);
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INTERNAL_ERROR');
      expect(body.error.message).toMatch(/^The store's configuration is invalid \(its logs name the variable\)\. Quote request id \S+ when reporting it\.$/);
      expect(body.error.message).not.toContain('RATE_LIMIT_ANONYMOUS');
      expect(logged.mock.calls.map((call) => String(call[0])).join('\n')).toContain('RATE_LIMIT_ANONYMOUS must be a whole number above 0, not \\"1o0\\"');
    } finally {
      logged.mockRestore();
    }
  });

  it('the same env with valid values answers as usual', async () => {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request('http://store.test/api/health'), { ...env, RATE_LIMIT_ANONYMOUS: '100' }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
  });
});
