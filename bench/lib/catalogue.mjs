// A synthetic catalogue of N products for the bench: 20 categories (4 parents, 16 leaves), 10 brands,
// 3 vendors, each product with 2 or 3 variants (ample stock, so orders never run out) and one or two
// leaf categories; about 91% active, 6% draft, 3% archived. Deterministic: the same N gives the same
// rows, so a reused database is the one a fresh seed would build.
//
// Rows go in as multi-row INSERTs with bound parameters, as many rows per statement as fit under D1's
// 100-parameter limit, many statements per db.batch() call.

export const SEED_VERSION = 2;
const EPOCH = Date.parse('2025-01-01T00:00:00.000Z');
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_PARAMS = 100;

function timePart(ms) {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/** An id in the Worker's format (prefix_ + 10 time + 16 more Crockford characters), unique per (prefix, n). */
function benchId(prefix, ms, n) {
  let tail = '';
  let x = n;
  for (let i = 0; i < 16; i++) {
    tail = CROCKFORD[x % 32] + tail;
    x = Math.floor(x / 32);
  }
  return `${prefix}_${timePart(ms)}${tail}`;
}

/** A cheap deterministic hash of an integer, in [0, 2^32). */
function mix(n) {
  let x = (n + 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const iso = (ms) => new Date(ms).toISOString();

export const CATEGORIES = (() => {
  const rows = [];
  const parents = ['apparel', 'home', 'tech', 'outdoor'];
  parents.forEach((slug, p) => {
    const ms = EPOCH + p * 1000;
    const id = benchId('cat', ms, p);
    rows.push({
      id,
      name: slug[0].toUpperCase() + slug.slice(1),
      slug: `bench-${slug}`,
      description: null,
      parent_id: null,
      position: p,
      created_at: iso(ms),
      updated_at: iso(ms),
    });
    for (let c = 0; c < 4; c++) {
      const n = 4 + p * 4 + c;
      const cms = EPOCH + n * 1000;
      rows.push({
        id: benchId('cat', cms, n),
        name: `${slug} ${c + 1}`,
        slug: `bench-${slug}-${c + 1}`,
        description: null,
        parent_id: id,
        position: c,
        created_at: iso(cms),
        updated_at: iso(cms),
      });
    }
  });
  return rows;
})();
export const LEAVES = CATEGORIES.filter((c) => c.parent_id);
export const BRANDS = Array.from({ length: 10 }, (_, i) => {
  const ms = EPOCH + 100_000 + i * 1000;
  return { id: benchId('brand', ms, i), name: `Bench Brand ${i + 1}`, slug: `bench-brand-${i + 1}`, description: null, logo_url: null, created_at: iso(ms), updated_at: iso(ms) };
});
export const VENDORS = Array.from({ length: 3 }, (_, i) => {
  const ms = EPOCH + 200_000 + i * 1000;
  return {
    id: benchId('vend', ms, i),
    name: `Bench Vendor ${i + 1}`,
    slug: `bench-vendor-${i + 1}`,
    email: `vendor${i + 1}@bench.example.com`,
    created_at: iso(ms),
    updated_at: iso(ms),
  };
});

const PRODUCT_EPOCH = EPOCH + 86_400_000;
export const STOCK = 1_000_000;

export function productId(i) {
  return benchId('prod', PRODUCT_EPOCH + i * 60_000, i);
}
export function variantId(i, k) {
  return benchId('var', PRODUCT_EPOCH + i * 60_000, i * 4 + k);
}
export function productStatus(i) {
  if (i % 33 === 7) return 'archived';
  if (i % 16 === 3) return 'draft';
  return 'active';
}
export function variantCount(i) {
  return i % 2 === 0 ? 2 : 3;
}

/**
 * The products the search scenario finds (`q=satchel`): the same 20 at every catalogue size (all
 * among the first thousand), so what a search reads can be compared across sizes.
 */
export const SEARCH_TARGETS = 20;
export const SEARCH_WORD = 'satchel';
const isSearchTarget = (i) => i < 1000 && i % (1000 / SEARCH_TARGETS) === 0;

/** The rows of product i: the product, its variants and its category links. */
function productRows(i) {
  const ms = PRODUCT_EPOCH + i * 60_000;
  const h = mix(i);
  const id = productId(i);
  const base = 500 + (h % 20_000);
  const ts = iso(ms);
  const variants = [];
  const sizes = ['S', 'M', 'L'];
  for (let k = 0; k < variantCount(i); k++) {
    variants.push({
      id: variantId(i, k),
      product_id: id,
      sku: `BENCH-${i}-${sizes[k]}`,
      name: sizes[k],
      options: `{"size":"${sizes[k]}"}`,
      price: base + k * 150,
      compare_at_price: null,
      stock: STOCK,
      low_stock_threshold: null,
      position: k,
      created_at: ts,
      updated_at: ts,
    });
  }
  const product = {
    id,
    name: `Bench product ${i}${isSearchTarget(i) ? ' leather satchel' : ''}`,
    slug: `bench-product-${i}`,
    description: `Product ${i} of the bench catalogue: a plain description of moderate length, as a storefront would show.`,
    price: base,
    compare_at_price: h % 5 === 0 ? base + 1000 : null,
    sku: `BENCH-${i}`,
    status: productStatus(i),
    brand_id: BRANDS[h % BRANDS.length].id,
    vendor_id: VENDORS[i % VENDORS.length].id,
    images: `[{"url":"https://images.example.com/bench/${i}.jpg","alt":"Bench product ${i}"}]`,
    attributes: `{"weightGrams":${100 + (h % 900)}}`,
    low_stock_threshold: null,
    created_at: ts,
    updated_at: ts,
  };
  const links = [{ product_id: id, category_id: LEAVES[i % LEAVES.length].id }];
  if (i % 3 === 0) {
    const other = LEAVES[(i * 7 + 5) % LEAVES.length].id;
    if (other !== links[0].category_id) links.push({ product_id: id, category_id: other });
  }
  return { product, variants, links };
}

/** [sql, params] for one multi-row INSERT of `rows` (all with the same columns). */
function insert(table, rows) {
  const columns = Object.keys(rows[0]);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
  return [sql, rows.flatMap((row) => columns.map((c) => row[c]))];
}

/** Splits rows into INSERTs that each bind at most 100 parameters. */
export function* inserts(table, rows) {
  if (rows.length === 0) return;
  const perStatement = Math.floor(MAX_PARAMS / Object.keys(rows[0]).length);
  for (let i = 0; i < rows.length; i += perStatement) yield insert(table, rows.slice(i, i + perStatement));
}

/** Every INSERT of the catalogue, product block by product block (block rows are built lazily). */
export function* catalogueStatements(count, block = 600) {
  yield* inserts(
    'categories',
    CATEGORIES.filter((c) => !c.parent_id),
  );
  yield* inserts('categories', LEAVES);
  yield* inserts('brands', BRANDS);
  yield* inserts('vendors', VENDORS);
  for (let start = 0; start < count; start += block) {
    const products = [];
    const variants = [];
    const links = [];
    for (let i = start; i < Math.min(count, start + block); i++) {
      const rows = productRows(i);
      products.push(rows.product);
      variants.push(...rows.variants);
      links.push(...rows.links);
    }
    yield* inserts('products', products);
    yield* inserts('product_variants', variants);
    yield* inserts('product_categories', links);
  }
}

/**
 * Seeds `count` products into `db` (a D1 binding, here Miniflare's proxy of it): statements sent
 * `perBatch` at a time, each batch one D1 transaction. Returns the number of statements.
 */
export async function seedCatalogue(db, count, { perBatch = 400, onProgress } = {}) {
  let pending = [];
  let statements = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    await db.batch(pending.map(([sql, params]) => db.prepare(sql).bind(...params)));
    statements += pending.length;
    pending = [];
    onProgress?.(statements);
  };
  for (const statement of catalogueStatements(count)) {
    pending.push(statement);
    if (pending.length >= perBatch) await flush();
  }
  await flush();
  return statements;
}

/** A year of sales (2025) for the reports: this many guest orders a day, 1 to 3 lines each, about 1 in 12 cancelled. */
export const SALES_YEAR = { year: 2025, ordersPerDay: 40 };

/**
 * The orders and lines of SALES_YEAR over the first `count` products, inserted as rows: the
 * database's triggers keep the reports' daily totals as they would for placed orders.
 */
export function* salesYearStatements(count) {
  const start = Date.UTC(SALES_YEAR.year, 0, 1);
  const active = [];
  for (let i = 0; active.length < 500 && i < count; i++) if (productStatus(i) === 'active') active.push(i);
  let n = 0;
  for (let day = 0; day < 365; day++) {
    const orders = [];
    const lines = [];
    for (let k = 0; k < SALES_YEAR.ordersPerDay; k++, n++) {
      const ms = start + day * 86_400_000 + k * 60_000;
      const id = benchId('ord', ms, n);
      const h = mix(n + 7);
      let subtotal = 0;
      for (let l = 0; l < 1 + (h % 3); l++) {
        const i = active[mix(n * 3 + l) % active.length];
        const quantity = 1 + (mix(n + l) % 3);
        const unit = 500 + (mix(i) % 20_000);
        subtotal += unit * quantity;
        lines.push({
          id: benchId('oli', ms, n * 4 + l),
          order_id: id,
          product_id: productId(i),
          variant_id: variantId(i, 0),
          name: `Product ${i}`,
          quantity,
          unit_price: unit,
          subtotal: unit * quantity,
          total: unit * quantity,
        });
      }
      const cancelled = h % 12 === 5;
      orders.push({
        id,
        number: 100_000 + n,
        first_order: 1,
        email: `buyer${n % 9000}@bench.example.com`,
        status: cancelled ? 'cancelled' : 'completed',
        currency: 'USD',
        minor_units: 2,
        subtotal,
        total: subtotal,
        amount_paid: cancelled ? 0 : subtotal,
        cancelled_at: cancelled ? iso(ms) : null,
        created_at: iso(ms),
        updated_at: iso(ms),
      });
    }
    yield* inserts('orders', orders);
    yield* inserts('order_lines', lines);
  }
}

/** Counts to compare with a reused database. */
export function expectedCounts(count) {
  let variants = 0;
  for (let i = 0; i < count; i++) variants += variantCount(i);
  return { products: count, variants };
}
