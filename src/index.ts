import { createApp } from './app';
import { config } from './config';
import type { Bindings } from './env';

export { AddressLimiter } from './durable-objects/address-limiter';
export { RateLimiter } from './durable-objects/rate-limiter';

const app = createApp();

/** The Worker entry: HTTP, the webhook queues and the cron. */
export default {
  fetch: app.fetch,
  // The queue consumers and the crons load on their first batch or run, not at the Worker's startup.
  queue: async (batch, env, ctx) => (await import('./queues')).handleQueue(batch, env, ctx),
  async scheduled(controller, env, ctx) {
    config(env); // an invalid variable fails the run, naming it
    ctx.waitUntil(
      import('./scheduled')
        .then(({ runScheduled }) => runScheduled(env, controller.cron))
        .then((result) => console.log(JSON.stringify({ level: 'info', message: 'scheduled', cron: controller.cron, ...result }))),
    );
  },
} satisfies ExportedHandler<Bindings>;
