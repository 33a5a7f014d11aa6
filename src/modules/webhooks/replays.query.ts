import { WEBHOOK_REPLAY_STATUSES, webhookReplays } from '../../db/schema';
import { defineListQuery, enumFilter, fieldTreeFromSchema } from '../../lib/query';
import { ReplaySchema } from './replays.schemas';

export const replayListQuery = defineListQuery({
  resource: 'webhook replay',
  id: webhookReplays.id,
  sortable: { createdAt: webhookReplays.createdAt, id: webhookReplays.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(ReplaySchema),
  filters: {
    status: enumFilter(webhookReplays.status, WEBHOOK_REPLAY_STATUSES, 'Replay status.'),
  },
});
