import { createApp } from './app';
import type { Bindings } from './env';

export { RateLimiter } from './durable-objects/rate-limiter';

const app = createApp();

/** The Worker entry. Queue consumers and the scheduler join here as they arrive. */
export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
