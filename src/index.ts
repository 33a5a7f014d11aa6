import { createApp } from './app';
import { config } from './config';
import type { Bindings } from './env';
import { handleQueue } from './queues';
import { runScheduled } from './scheduled';

export { AddressLimiter } from './durable-objects/address-limiter';
export { RateLimiter } from './durable-objects/rate-limiter';

const app = createApp();

/** The Worker entry: HTTP, the webhook queues and the cron. */
export default {
  fetch: app.fetch,
  queue: handleQueue,
  async scheduled(controller, env, ctx) {
    config(env); // an invalid variable fails the run, naming it
    ctx.waitUntil(runScheduled(env, controller.cron).then((result) => console.log(JSON.stringify({ level: 'info', message: 'scheduled', cron: controller.cron, ...result }))));
  },
} satisfies ExportedHandler<Bindings>;
