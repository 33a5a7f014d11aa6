import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'media',
  routers: [
    { at: '/api', keys: ['api/products'], load: async () => (await import('./router')).mediaRouter },
    { at: '/', keys: ['media'], load: async () => (await import('./router')).mediaFilesRouter },
  ],
  tables: {
    audited: { product_media: 'product_media' },
    notAudited: {
      media_unused: 'bookkeeping of stored files no image uses, deleted from R2 (src/modules/media/media.objects.ts)',
    },
  },
});
