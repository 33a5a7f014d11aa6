// B1: the floor for a request that must read the database once. The first page of active products
// (20 rows, the product columns, newest first) from the same D1 database, one query, no middleware.
// It reports its own D1 cost so the bench can compare rows read.
const SQL =
  'SELECT id, name, slug, description, price, compare_at_price, sku, status, brand_id, vendor_id, images, attributes, ' +
  'low_stock_threshold, created_at, updated_at FROM products WHERE status = ? ORDER BY created_at DESC, id DESC LIMIT 20';

export default {
  async fetch(_request, env) {
    const result = await env.DB.prepare(SQL).bind('active').all();
    return new Response(JSON.stringify({ success: true, data: result.results }), {
      headers: { 'Content-Type': 'application/json', 'X-Bench-D1-Rows-Read': String(result.meta?.rows_read ?? ''), 'X-Bench-D1-Round-Trips': '1' },
    });
  },
};
