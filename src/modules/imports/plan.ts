import type { z } from '@hono/zod-openapi';
import { CreateProductBody, type CreateProductInput, type CreateVariantInput, MAX_VARIANTS_PER_PRODUCT } from '../products/schemas';
import { ApiError, detailOf } from '../../lib/errors';
import { wordIssue } from '../../lib/issue-messages';
import { type CurrencyCell, type Field, FIELDS, type ImportFormat, type ImportRow, type ReadFile } from './formats';
import type { WeightUnit } from '../../db/schema';
import { type CurrencyPriceInput, type CurrencyTable, storedPrices } from '../checkout';

/**
 * Rows grouped into products and checked with the same schema as `POST /api/products`, so an
 * import accepts exactly what the API would. Rows sharing a `handle` are one product (its
 * variants, and in Shopify's format its extra images); a row without one is a product of its own.
 * A product with any bad row is not imported at all, and each bad cell is reported with its line
 * and column.
 */

export interface ProductPlan {
  /** The lines of the product's rows in the file. */
  lines: number[];
  /** Matches an existing product: its SKU, else its slug (the handle). */
  sku: string | null;
  handle: string | null;
  body: CreateProductInput;
  /** The product fields the file gives (an update changes only these), and whether it gives variants. */
  given: (keyof CreateProductInput)[];
}

export interface Failure {
  line: number;
  column: string;
  reason: string;
}

/** The store's brands and categories, by what a file may call them (lower-cased name or slug; a category also by its path). */
export interface Names {
  brands: Map<string, string>;
  categories: Map<string, string>;
  /** The store's weightUnit, which Shopify's grams are converted to. */
  weightUnit: WeightUnit;
  /** The store's currencies, which `price_eur` and the like are checked against. */
  currencies: CurrencyTable;
}

/** Grams per unit of each weightUnit. */
const GRAMS: Record<WeightUnit, number> = { g: 1, kg: 1000, oz: 28.349523125, lb: 453.59237 };

export interface Planned {
  /** The file's data rows. */
  rows: number;
  plans: ProductPlan[];
  failures: Failure[];
  /** Products with at least one failure, and their rows. */
  failedProducts: number;
  failedRows: number;
}

/** The cells that make a row a variant: its option values and every `variant…` column. */
const VARIANT_FIELDS: Field[] = FIELDS.filter((f) => f.startsWith('variant') || /^option\dValue$/.test(f));
const STATUSES = new Set(['draft', 'active', 'archived']);

/**
 * Rows one product may have. A row is a variant (or, in Shopify's format, one more image, of
 * which a product takes fewer), so this is as many as `POST /api/products` takes.
 */
export const MAX_ROWS_PER_PRODUCT = MAX_VARIANTS_PER_PRODUCT;

/**
 * Rows one file may have. Planning costs about 20 µs a row (64k one-row products: 1.3-1.5 s under
 * `npm run dev`) and the rows are kept until the chunks are written, so 10 MiB of short rows
 * (900k products) would take seconds of CPU and more memory than an isolate has.
 */
export const MAX_ROWS_PER_FILE = 50_000;

/**
 * The file's rows by product, in one pass. A product with more rows than any product can hold
 * refuses the whole file at once, where it is met: the rest of the file is not even read.
 */
function groupRows(file: ReadFile): { groups: Map<string, ImportRow[]>; rows: number } {
  const groups = new Map<string, ImportRow[]>();
  let count = 0;
  for (const row of file.rows) {
    count++;
    if (count > MAX_ROWS_PER_FILE) {
      throw new ApiError('INVALID_REQUEST', `The file has more than ${MAX_ROWS_PER_FILE} rows: split it into files of at most ${MAX_ROWS_PER_FILE}`, {
        status: 413,
        details: [detailOf({ field: 'body', problem: `has more than ${MAX_ROWS_PER_FILE} rows (line ${row.line})`, code: 'too_big' })],
      });
    }
    const key = row.values.handle ? `h:${row.values.handle.toLowerCase()}` : `l:${row.line}`;
    const rows = groups.get(key);
    if (!rows) groups.set(key, [row]);
    else if (rows.length < MAX_ROWS_PER_PRODUCT) rows.push(row);
    else {
      const reason = `'${row.values.handle}' has more than ${MAX_ROWS_PER_PRODUCT} rows: a product has at most ${MAX_ROWS_PER_PRODUCT} (one per variant, as POST /api/products takes)`;
      throw ApiError.validation([{ field: 'body', problem: `line ${row.line}, column ${file.columnOf('handle')}: ${reason}` }]);
    }
  }
  return { groups, rows: count };
}

export function planProducts(file: ReadFile, names: Names): Planned {
  const { groups, rows: count } = groupRows(file);
  const out: Planned = { rows: count, plans: [], failures: [], failedProducts: 0, failedRows: 0 };
  const skuLines = new Map<string, number>();
  for (const rows of groups.values()) {
    const failures: Failure[] = [];
    const plan = planOne(rows, file, names, failures);
    for (const sku of plan ? skusOf(plan.body) : []) {
      const seen = skuLines.get(sku);
      if (seen !== undefined) failures.push({ line: rows[0]!.line, column: file.columnOf('variantSku'), reason: `SKU '${sku}' is also on line ${seen}` });
      else skuLines.set(sku, rows[0]!.line);
    }
    if (plan && failures.length === 0) out.plans.push(plan);
    else {
      out.failures.push(...failures);
      out.failedProducts++;
      out.failedRows += rows.length;
    }
  }
  out.failures.sort((a, b) => a.line - b.line);
  return out;
}

const skusOf = (body: CreateProductInput) => [body.sku, ...(body.variants ?? []).map((v) => v.sku)].filter((s): s is string => !!s);

function planOne(rows: ImportRow[], file: ReadFile, names: Names, failures: Failure[]): ProductPlan | null {
  const first = rows[0]!;
  const col = file.columnOf;
  const fail = (row: ImportRow, field: Field, reason: string) => failures.push({ line: row.line, column: col(field), reason });
  /** The first value the product's rows give for a product-level field, with its row. */
  const pick = (field: Field) => {
    const row = rows.find((r) => r.values[field] !== undefined);
    return row ? { row, value: row.values[field]! } : undefined;
  };
  const number = (row: ImportRow, field: Field, whole = false): number | undefined => {
    const raw = row.values[field];
    if (raw === undefined) return undefined;
    const value = Number(raw.replace(/^\$/, ''));
    if (raw === '' || !Number.isFinite(value) || (whole && !Number.isInteger(value))) {
      fail(row, field, whole ? `'${raw}' is not a whole number` : `'${raw}' is not a number (use a dot for decimals: 19.99)`);
      return undefined;
    }
    return value;
  };

  const body: Record<string, unknown> = {};
  const given: (keyof CreateProductInput)[] = [];
  const set = (key: keyof CreateProductInput, value: unknown) => {
    if (value === undefined) return;
    body[key] = value;
    given.push(key);
  };
  set('name', pick('name')?.value);
  set('description', pick('description')?.value);
  const status = statusOf(rows, file.format, fail);
  set('status', status);
  const handle = first.values.handle ?? null;
  if (handle) set('slug', handle.toLowerCase());

  const brand = pick('brand');
  if (brand) {
    const id = names.brands.get(brand.value.toLowerCase());
    if (id) set('brandId', id);
    else if (file.format === 'store') fail(brand.row, 'brand', `no brand '${brand.value}': create it first, or leave the cell empty`);
  }
  const category = pick('category');
  if (category) {
    const id = names.categories.get(category.value.toLowerCase().replace(/\s*>\s*/g, ' > '));
    if (id) set('categoryIds', [id]);
    else if (file.format === 'store') fail(category.row, 'category', `no category '${category.value}': give its path from the top (Home > Kitchen) or its slug`);
  }
  const images = imagesOf(rows);
  if (images.length) set('images', images);

  // Variants: rows with option values or variant cells. Option names come from the row or the product's first row.
  const optionNames = [1, 2, 3].map((n) => pick(`option${n}Name` as Field)?.value);
  const variantRows = rows.filter((r) => VARIANT_FIELDS.some((f) => r.values[f] !== undefined) || r.currencyCells.some((c) => c.variant));
  /** Prices in other currencies from `cells` (the first of each currency and part), checked as the API checks them. */
  const pricesOf = (row: ImportRow, cells: CurrencyCell[]): CurrencyPriceInput[] | undefined => {
    const byCurrency = new Map<string, { amount?: CurrencyCell; compareAt?: CurrencyCell }>();
    for (const cell of cells) {
      const entry = byCurrency.get(cell.currency) ?? {};
      entry[cell.part] ??= cell;
      byCurrency.set(cell.currency, entry);
    }
    if (!byCurrency.size) return undefined;
    const failAt = (cell: CurrencyCell, reason: string) => failures.push({ line: row.line, column: cell.column, reason });
    const amountOf = (cell: CurrencyCell) => {
      const value = Number(cell.value.replace(/^[$€£]/, ''));
      if (Number.isFinite(value) && value >= 0) return value;
      failAt(cell, `'${cell.value}' is not an amount (use a dot for decimals: 19.99)`);
      return undefined;
    };
    const list: CurrencyPriceInput[] = [];
    const cellsOf: { amount: CurrencyCell; compareAt?: CurrencyCell }[] = [];
    for (const [currency, { amount, compareAt }] of byCurrency) {
      if (!amount) {
        failAt(compareAt!, `a compare-at price in ${currency} needs a price in ${currency} beside it`);
        continue;
      }
      list.push({ currency, amount: amountOf(amount)!, compareAt: compareAt ? amountOf(compareAt) : null });
      cellsOf.push({ amount, compareAt });
    }
    const { problems } = storedPrices(list, names.currencies, 'prices');
    for (const problem of problems) {
      const [, index, part] = problem.field.split('.');
      const cells = cellsOf[Number(index)]!;
      failAt((part === 'compareAt' ? cells.compareAt : undefined) ?? cells.amount, problem.problem);
    }
    return list;
  };
  const variants: { row: ImportRow; input: CreateVariantInput }[] = variantRows.map((row) => {
    const options: Record<string, string> = {};
    [1, 2, 3].forEach((n, i) => {
      const value = row.values[`option${n}Value` as Field];
      const name = row.values[`option${n}Name` as Field] ?? optionNames[i];
      // Shopify writes a product without options as one variant `Title: Default Title`.
      if (value === undefined || (name === 'Title' && value === 'Default Title')) return;
      if (!name) fail(row, `option${n}Name` as Field, `option ${n} has a value but no name`);
      else options[name] = value;
    });
    const input: CreateVariantInput = { options };
    const sku = row.values.variantSku;
    if (sku !== undefined) input.sku = sku;
    const price = number(row, 'variantPrice');
    if (price !== undefined) input.price = price;
    const compare = number(row, 'variantCompareAtPrice');
    if (compare !== undefined) input.compareAtPrice = compare;
    const stock = number(row, 'variantStock', true);
    if (stock !== undefined) input.stock = Math.max(0, stock);
    const weight = number(row, 'variantWeight');
    const grams = number(row, 'variantGrams');
    if (weight !== undefined) input.weight = weight;
    else if (grams !== undefined) input.weight = Number((grams / GRAMS[names.weightUnit]).toFixed(6));
    const prices = pricesOf(
      row,
      row.currencyCells.filter((c) => c.variant),
    );
    if (prices) input.prices = prices;
    return { row, input };
  });

  const price = pick('price');
  const productPrice = price ? number(price.row, 'price') : variants.find((v) => v.input.price !== undefined)?.input.price;
  set('price', productPrice);
  const compare = pick('compareAtPrice');
  if (compare) set('compareAtPrice', number(compare.row, 'compareAtPrice'));
  const productSku = pick('sku')?.value;
  const priceRow = rows.find((r) => r.currencyCells.some((c) => !c.variant));
  const productPrices =
    priceRow &&
    pricesOf(
      priceRow,
      priceRow.currencyCells.filter((c) => !c.variant),
    );
  const simple = variants.length === 1 && Object.keys(variants[0]!.input.options ?? {}).length === 0;
  // A simple product's variant takes the product's prices per currency (as its price): the variant's cells count as the product's.
  set('prices', productPrices ?? (simple ? variants[0]!.input.prices : undefined));
  if (simple) {
    const only = variants[0]!.input;
    set('sku', only.sku ?? productSku);
    if (only.stock !== undefined) set('stock', only.stock);
    if (only.weight !== undefined) set('weight', only.weight);
    if (!price && only.compareAtPrice !== undefined) set('compareAtPrice', only.compareAtPrice);
  } else {
    set('sku', productSku);
    if (variants.length)
      set(
        'variants',
        variants.map((v) => v.input),
      );
  }
  if (failures.length) return null;

  const parsed = CreateProductBody.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) failures.push(failureOf(issue, rows, simple ? [] : variants.map((v) => v.row), file));
    return null;
  }
  return { lines: rows.map((r) => r.line), sku: parsed.data.sku ?? null, handle: handle?.toLowerCase() ?? null, body: parsed.data, given };
}

function statusOf(rows: ImportRow[], format: ImportFormat, fail: (row: ImportRow, field: Field, reason: string) => void): CreateProductInput['status'] {
  const row = rows.find((r) => r.values.status !== undefined);
  if (row) {
    const value = row.values.status!.toLowerCase();
    if (STATUSES.has(value)) return value as CreateProductInput['status'];
    fail(row, 'status', `'${row.values.status}' is not one of draft, active, archived`);
    return undefined;
  }
  if (format === 'shopify') {
    const published = rows.find((r) => r.values.published !== undefined)?.values.published?.toLowerCase();
    if (published !== undefined) return published === 'true' ? 'active' : 'draft';
  }
  return undefined;
}

/** Image URLs: the store's `image_urls` cell holds several (space or `|` separated); Shopify gives one per row, with its alt text. */
function imagesOf(rows: ImportRow[]): { url: string; alt?: string }[] {
  const seen = new Set<string>();
  const images: { url: string; alt?: string }[] = [];
  for (const row of rows) {
    for (const url of (row.values.images ?? '').split(/[\s|]+/).filter(Boolean)) {
      if (seen.has(url)) continue;
      seen.add(url);
      images.push(row.values.imageAlt ? { url, alt: row.values.imageAlt } : { url });
    }
  }
  return images;
}

/** Where in the file a schema issue is: the variant's row and column for `variants.N.x`, else the product's first row that has the field. */
function failureOf(issue: z.core.$ZodIssue, rows: ImportRow[], variantRows: ImportRow[], file: ReadFile): Failure {
  const [key, index, sub] = issue.path as (string | number)[];
  const weightField: Field = file.format === 'shopify' ? 'variantGrams' : 'variantWeight';
  const variantField: Record<string, Field> = {
    sku: 'variantSku',
    price: 'variantPrice',
    compareAtPrice: 'variantCompareAtPrice',
    stock: 'variantStock',
    weight: weightField,
    options: 'option1Value',
  };
  if (key === 'variants' && typeof index === 'number' && variantRows[index]) {
    return { line: variantRows[index]!.line, column: file.columnOf(variantField[String(sub)] ?? 'variantSku'), reason: wordIssue(issue).problem };
  }
  const productField: Record<string, Field> = {
    slug: 'handle',
    stock: 'variantStock',
    weight: weightField,
    images: 'images',
    categoryIds: 'category',
    brandId: 'brand',
    variants: 'option1Value',
  };
  const field = (productField[String(key)] ?? key) as Field;
  const row = rows.find((r) => r.values[field] !== undefined) ?? rows[0]!;
  return { line: row.line, column: file.columnOf(field), reason: wordIssue(issue).problem };
}
