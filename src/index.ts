import { createApp } from './app';
import type { Bindings } from './env';
import { runScheduled } from './scheduled';

export { RateLimiter } from './durable-objects/rate-limiter';

const app = createApp();

/** The Worker entry. The queue consumer joins here with webhooks. */
export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduled(env).then((result) => console.log(JSON.stringify({ level: 'info', message: 'scheduled cleanup', ...result }))));
  },
} satisfies ExportedHandler<Bindings>;
