import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'events',
  routers: [{ at: '/api', keys: ['api/events'], load: async () => (await import('./router')).eventsRouter }],
  permissions: ['events'],
  tables: {
    notAudited: {
      events: 'the outbox: itself a record of domain events',
      event_positions: "the events' position counter, kept by their insert trigger",
    },
  },
});
