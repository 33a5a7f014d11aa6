import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'products',
  routers: [{ at: '/api', keys: ['api/products'], load: async () => (await import('./router')).productsRouter }],
  permissions: ['products'],
  tables: {
    audited: { products: 'product', product_variants: 'variant' },
    notAudited: {
      product_status_counts: 'derived counters kept by triggers',
      product_facet_counts: 'derived counters kept by triggers',
      product_search_rows: "the full-text index's row number of each product, kept by triggers with the index (migrations/0030_product_search.sql)",
      product_related_refresh: 'always empty: rebuild requests for products.related, applied by a trigger',
      catalogue_version: 'a version number bumped by triggers',
    },
  },
  events: ['product.created', 'product.updated', 'product.deleted'],
  eventKinds: async () => (await import('./products.events')).EVENT_KINDS,
});
