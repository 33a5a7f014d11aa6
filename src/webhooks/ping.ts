import { z } from '@hono/zod-openapi';
import type { EventKind } from '../lib/define-module';
import { idField } from '../lib/event-fields';

/** `ping`: what `POST /api/webhooks/{id}/test` sends to one endpoint. */
export const PING_KIND = {
  data: z.object({ webhookId: idField('we_01JD0000000000000000000000'), message: z.string() }),
  summary: 'A test delivery',
  description: 'Sent to one endpoint by `POST /api/webhooks/{id}/test`; never broadcast, and not subscribable.',
} as const satisfies EventKind;

export type PingData = z.infer<typeof PING_KIND.data>;
