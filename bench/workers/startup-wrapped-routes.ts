// A router's schemas, reached by import() from startup-wrapped.ts as the store's routers are.
import { z } from '@hono/zod-openapi';

export const routes = () => z.object({ id: z.string() });
