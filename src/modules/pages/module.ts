import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'pages',
  routers: [{ at: '/api', keys: ['api/pages'], load: async () => (await import('./router')).pagesRouter }],
  permissions: ['content'],
  tables: {
    audited: { pages: 'page' },
  },
  events: ['page.published', 'page.updated', 'page.unpublished'],
  eventKinds: async () => (await import('./pages.events')).EVENT_KINDS,
});
