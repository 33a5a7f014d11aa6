import type { CsvRecord } from '../../lib/csv';

/**
 * The two product CSV formats the import reads (docs/import.md): the store's own columns, and
 * Shopify's product export. Each row becomes an ImportRow of raw text values and the column
 * header each came from, so a failure can name the column as the file does.
 */

export type ImportFormat = 'store' | 'shopify';

export const FIELDS = [
  'handle',
  'name',
  'description',
  'status',
  'price',
  'compareAtPrice',
  'sku',
  'category',
  'brand',
  'option1Name',
  'option1Value',
  'option2Name',
  'option2Value',
  'option3Name',
  'option3Value',
  'variantSku',
  'variantPrice',
  'variantCompareAtPrice',
  'variantStock',
  'variantWeight',
  'variantGrams',
  'images',
  'imageAlt',
  'published',
] as const;
export type Field = (typeof FIELDS)[number];

/** The store's columns: snake_case of each field (`compare_at_price`, `option1_name`, `image_urls`). */
const STORE_COLUMNS: Record<string, Field> = {
  handle: 'handle',
  name: 'name',
  description: 'description',
  status: 'status',
  price: 'price',
  compare_at_price: 'compareAtPrice',
  sku: 'sku',
  category: 'category',
  brand: 'brand',
  option1_name: 'option1Name',
  option1_value: 'option1Value',
  option2_name: 'option2Name',
  option2_value: 'option2Value',
  option3_name: 'option3Name',
  option3_value: 'option3Value',
  variant_sku: 'variantSku',
  variant_price: 'variantPrice',
  variant_compare_at_price: 'variantCompareAtPrice',
  variant_stock: 'variantStock',
  variant_weight: 'variantWeight',
  image_urls: 'images',
};

/** Shopify's product CSV (Products > Export); columns not listed are ignored. */
const SHOPIFY_COLUMNS: Record<string, Field> = {
  handle: 'handle',
  title: 'name',
  'body (html)': 'description',
  vendor: 'brand',
  type: 'category',
  published: 'published',
  status: 'status',
  'option1 name': 'option1Name',
  'option1 value': 'option1Value',
  'option2 name': 'option2Name',
  'option2 value': 'option2Value',
  'option3 name': 'option3Name',
  'option3 value': 'option3Value',
  'variant sku': 'variantSku',
  'variant price': 'variantPrice',
  'variant compare at price': 'variantCompareAtPrice',
  'variant inventory qty': 'variantStock',
  'variant grams': 'variantGrams',
  'image src': 'images',
  'image alt text': 'imageAlt',
};

export const STORE_COLUMN_NAMES = Object.keys(STORE_COLUMNS);

/**
 * The store's columns of prices in other currencies, one set per currency code: `price_eur`,
 * `compare_at_price_eur` (the product's), `variant_price_eur`, `variant_compare_at_price_eur`.
 */
const CURRENCY_COLUMN = /^(variant_)?(price|compare_at_price)_([a-z]{3})$/;

/** A non-empty cell of a price in another currency, with the column it came from. */
export interface CurrencyCell {
  currency: string;
  variant: boolean;
  part: 'amount' | 'compareAt';
  column: string;
  value: string;
}

function currencyColumn(name: string, header: string): Omit<CurrencyCell, 'value'> | undefined {
  const match = CURRENCY_COLUMN.exec(name);
  if (!match) return undefined;
  return { currency: match[3]!.toUpperCase(), variant: Boolean(match[1]), part: match[2] === 'price' ? 'amount' : 'compareAt', column: header };
}

export interface ImportRow {
  line: number;
  values: Partial<Record<Field, string>>;
  /** Prices in other currencies the row gives (the store's format only). */
  currencyCells: CurrencyCell[];
}

export interface ReadFile {
  format: ImportFormat;
  /** The data rows, read from the file as they are taken: one pass only. */
  rows: Iterable<ImportRow>;
  /** The file's header for each field, for failures. */
  columnOf: (field: Field) => string;
  /** Header cells the format does not know (reported, not fatal). */
  ignored: string[];
}

/** Which format a header is: Shopify's has Handle, Title and Variant Price; anything else is read as the store's. */
export function readRows(records: Iterable<CsvRecord>): ReadFile | { error: string } {
  const data = records[Symbol.iterator]();
  const first = data.next();
  if (first.done) return { error: 'the file is empty: the first line must name the columns' };
  const header = first.value;
  const names = header.cells.map((cell) => cell.trim().toLowerCase());
  const shopify = names.includes('handle') && names.includes('title') && names.includes('variant price');
  const columns = shopify ? SHOPIFY_COLUMNS : STORE_COLUMNS;
  const fieldAt = names.map((name) => columns[name]);
  const currencyAt = names.map((name, i) => (shopify || fieldAt[i] ? undefined : currencyColumn(name, header.cells[i]!.trim())));
  if (!shopify && !fieldAt.includes('name'))
    return { error: `no 'name' column: the first line must name the columns (${STORE_COLUMN_NAMES.join(', ')}), or be Shopify's product export header` };
  const headerOf = new Map<Field, string>();
  fieldAt.forEach((field, i) => field && !headerOf.has(field) && headerOf.set(field, header.cells[i]!.trim()));
  function* rows(): Generator<ImportRow> {
    for (let next = data.next(); !next.done; next = data.next()) {
      const values: Partial<Record<Field, string>> = {};
      const currencyCells: CurrencyCell[] = [];
      next.value.cells.forEach((cell, i) => {
        const field = fieldAt[i];
        const value = cell.trim();
        if (field && value !== '' && values[field] === undefined) values[field] = value;
        const currency = currencyAt[i];
        if (currency && value !== '') currencyCells.push({ ...currency, value });
      });
      yield { line: next.value.line, values, currencyCells };
    }
  }
  return {
    format: shopify ? 'shopify' : 'store',
    rows: rows(),
    columnOf: (field) => headerOf.get(field) ?? field,
    ignored: header.cells
      .filter((_, i) => !fieldAt[i] && !currencyAt[i])
      .map((cell) => cell.trim())
      .filter(Boolean),
  };
}
