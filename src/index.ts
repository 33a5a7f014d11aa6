import { createApp } from './app';
import type { Bindings } from './env';

const app = createApp();

/** The Worker entry. Queue consumers, the scheduler and Durable Objects join here as they arrive. */
export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
