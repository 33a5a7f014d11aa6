import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'imports',
  routers: [{ at: '/api', keys: ['api/imports', 'api/products'], load: async () => (await import('./router')).importsRouter }],
  tables: {
    notAudited: {
      imports: 'a product import and its progress; the products it writes are audited',
      import_chunks: 'validated rows waiting for the import queue',
      import_failures: "an import's rejected rows, kept with it",
    },
  },
});
