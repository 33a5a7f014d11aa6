import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'categories',
  routers: [{ at: '/api', keys: ['api/categories'], load: async () => (await import('./router')).categoriesRouter }],
  permissions: ['categories'],
  tables: {
    audited: { categories: 'category', product_categories: 'product_category' },
    notAudited: {
      category_product_counts: 'derived counters kept by triggers',
      category_tree: 'the category hierarchy as pairs, derived from categories.parent_id by triggers',
      category_listing: 'every product under every category with its sort columns, derived from links, category_tree and products by triggers',
    },
  },
});
